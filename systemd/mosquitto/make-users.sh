#!/usr/bin/env bash
# Make the broker's password file for every user that the ACL names, and hand each password out
# in a file of its own (OUT_DIR/NAME.password) to copy to that rig as its [tournament]
# password_file (the leaderboard's to `--password-file`), with the tournament's CA certificate
# (OUT_DIR/ca.crt, from make-certs.sh: every rig's [tournament] ca_file).  A user new to OUT_DIR
# gets a new random password; one that has its file there keeps its password.
#
#   make-users.sh cleptomano.acl /etc/mosquitto/cleptomano.passwd ./passwords [CA_FILE]
#
# CA_FILE defaults to /etc/mosquitto/certs/ca.crt (make-certs.sh's).
# Run it again after adding a table to the ACL: the new table gets a password, the others keep
# theirs (delete a user's file first to give it a new one).
set -euo pipefail
if [ $# -ne 3 ] && [ $# -ne 4 ]; then
    echo "usage: $0 ACL_FILE PASSWORD_FILE OUT_DIR [CA_FILE]" >&2
    exit 2
fi
acl=$1 passwd=$2 out=$3 ca=${4:-/etc/mosquitto/certs/ca.crt}
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
    if [ -s "$out/$name.password" ]; then
        password=$(head -n 1 "$out/$name.password")
    else
        password=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
        printf '%s\n' "$password" > "$out/$name.password"
    fi
    mosquitto_passwd -b "$passwd" "$name" "$password"
    users=$((users + 1))
done < "$acl"
if [ -s "$ca" ]; then
    install -m 644 "$ca" "$out/ca.crt"
    echo "$users users in $passwd; their passwords and the CA certificate (ca.crt) are in $out/"
else
    echo "$users users in $passwd; their passwords are in $out/"
    echo "$0: warning: no CA certificate at $ca (run make-certs.sh first): the rigs need it" \
         "to reach the broker over TLS" >&2
fi
