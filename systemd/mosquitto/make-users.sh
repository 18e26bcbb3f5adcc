#!/usr/bin/env bash
# Make the broker's password file for every user that the ACL names, each with a new random
# password, and hand each password out in a file of its own (OUT_DIR/NAME.password) to copy to
# that rig as its [tournament] password_file (the leaderboard's to `--password-file`).
#
#   make-users.sh cleptomano.acl /etc/mosquitto/cleptomano.passwd ./passwords
#
# Run it again after adding a table: every user gets a new password.
set -euo pipefail
if [ $# -ne 3 ]; then
    echo "usage: $0 ACL_FILE PASSWORD_FILE OUT_DIR" >&2
    exit 2
fi
acl=$1 passwd=$2 out=$3
command -v mosquitto_passwd >/dev/null || {
    echo "$0: mosquitto_passwd not found; apt-get install mosquitto" >&2
    exit 1
}
umask 077
mkdir -p "$out"
: > "$passwd"
users=0
while read -r word name _; do
    [ "$word" = user ] || continue
    password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
    mosquitto_passwd -b "$passwd" "$name" "$password"
    printf '%s\n' "$password" > "$out/$name.password"
    users=$((users + 1))
done < "$acl"
echo "$users users in $passwd; their passwords are in $out/"
