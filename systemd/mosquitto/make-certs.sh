#!/usr/bin/env bash
# Make the tournament's own small CA and the broker's TLS certificate, signed by it, for the
# names and addresses the rigs will use to reach the broker (openssl; README "Tournament").
#
#   make-certs.sh /etc/mosquitto/certs 192.168.1.10 broker.lan
#
# CERT_DIR then holds ca.crt (what every rig's [tournament] ca_file names: make-users.sh hands
# it out with the passwords), ca.key (keep it there, root only: it signs broker certificates),
# broker.crt and broker.key (the shipped cleptomano.conf names them).  Run it again to
# add a name: the CA is kept (the rigs' ca.crt stays good), the broker gets a new certificate.
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 CERT_DIR HOST_OR_ADDRESS..." >&2
    exit 2
fi
dir=$1
shift
command -v openssl >/dev/null || {
    echo "$0: openssl not found; apt-get install openssl" >&2
    exit 1
}
umask 077
mkdir -p "$dir"
chmod 755 "$dir"                  # the broker (user mosquitto) reads its certificate there
if [ ! -s "$dir/ca.key" ] || [ ! -s "$dir/ca.crt" ]; then
    openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -sha256 \
        -subj "/CN=cleptomano tournament CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
fi
names=""
for name in "$@"; do
    if [[ $name =~ ^[0-9.]+$ || $name == *:* ]]; then
        names+="${names:+,}IP:$name"
    elif [[ $name =~ ^[A-Za-z0-9.-]+$ ]]; then
        names+="${names:+,}DNS:$name"
    else
        echo "$0: $name is neither a host name nor an IP address" >&2
        exit 2
    fi
done
ext=$(mktemp)
trap 'rm -f "$ext" "$dir/broker.csr"' EXIT
printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' "$names" > "$ext"
openssl req -newkey rsa:2048 -nodes -subj "/CN=$1" \
    -keyout "$dir/broker.key" -out "$dir/broker.csr" 2>/dev/null
openssl x509 -req -in "$dir/broker.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" \
    -CAcreateserial -days 825 -sha256 -extfile "$ext" -out "$dir/broker.crt" 2>/dev/null
chmod 644 "$dir/ca.crt" "$dir/broker.crt"
if getent group mosquitto >/dev/null && [ "$(id -u)" = 0 ]; then
    chgrp mosquitto "$dir/broker.key"       # Debian's broker drops to user mosquitto
    chmod 640 "$dir/broker.key"
fi
echo "CA $dir/ca.crt; the broker's certificate $dir/broker.crt for $names"
