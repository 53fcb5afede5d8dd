# The sync tier's https part (sourced by Tests/sync/run after the store scenarios; uses its hosts,
# `check`, `note`, `collector_*` and `device_*` helpers). A device pushes over https through a real
# TLS-terminating reverse proxy, as docs/SYNC.md tells a study to deploy a collector:
#
#   device 1's namespace                      the collector's namespace
#   chronoception sync … ──https──▶ nginx 10.213.1.1:8443 ──http──▶ chronoception collector 127.0.0.1:8740
#   (trusts the test CA only in its own
#    mount namespace; collector.test → 10.213.1.1 in its own /etc/hosts)
#
# The CA and certificates are made here with openssl and thrown away with the run. The device
# trusts the CA through the files NIOSSL reads on Linux (swift-nio-ssl 2.37.6,
# Sources/NIOSSL/LinuxCABundle.swift: the file /etc/ssl/certs/ca-certificates.crt and the directory
# /etc/ssl/certs): a temporary directory holding only the test CA as ca-certificates.crt is
# bind-mounted over /etc/ssl/certs inside `unshare -m`, so the machine's trust store is never
# written and no other process sees the test CA.

# nginx without its Debian service: the package's binary, unpacked into the cache. `apt-get install
# nginx` would start a system nginx on port 80 (its postinst), and fails where the www-data user is
# missing; the test needs only the binary, run in the foreground with a config of its own.
tls_nginx() {
    if command -v nginx > /dev/null; then command -v nginx; return; fi
    local cache=${XDG_CACHE_HOME:-$HOME/.cache}/chronoception/nginx
    if [ ! -x "$cache/root/usr/sbin/nginx" ]; then
        mkdir -p "$cache/debs"
        (cd "$cache/debs" && { apt-get download nginx > /dev/null 2>&1 || { scripts/apt-install --lists && apt-get download nginx > /dev/null 2>&1; }; }) \
            || { echo "sync: cannot download Debian's nginx package (apt-get download nginx)" >&2; return 1; }
        rm -rf "$cache/root.partial"; mkdir -p "$cache/root.partial"
        dpkg-deb -x "$(ls "$cache"/debs/nginx_*.deb | tail -1)" "$cache/root.partial"
        rm -rf "$cache/root"; mv "$cache/root.partial" "$cache/root"
    fi
    # Its libraries (OpenSSL 3, PCRE2, zlib, libcrypt) are in any Debian; install them if not.
    if ldd "$cache/root/usr/sbin/nginx" | grep -q "not found"; then
        scripts/apt-install --recommends libssl3 libpcre2-8-0 zlib1g libcrypt1
    fi
    echo "$cache/root/usr/sbin/nginx"
}

# tls_certificates DIR: a CA, a certificate for collector.test and one for elsewhere.test (both from
# that CA, so the second fails on its name alone), EC P-256, valid one day.
tls_certificates() {
    local dir=$1 name
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=chronoception sync test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$dir/ca.key" -out "$dir/ca.crt" 2> /dev/null
    for name in collector.test elsewhere.test; do
        openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$name" \
            -keyout "$dir/$name.key" -out "$dir/$name.csr" 2> /dev/null
        printf 'subjectAltName=DNS:%s\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n' "$name" > "$dir/$name.ext"
        openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 1 \
            -extfile "$dir/$name.ext" -out "$dir/$name.crt" 2> /dev/null
    done
    mkdir -p "$dir/trust"
    cp "$dir/ca.crt" "$dir/trust/ca-certificates.crt"
    printf '127.0.0.1 localhost\n%s collector.test\n' "$(collector_address 1)" > "$dir/hosts"
}

# tls_proxy_start NAME: nginx in the collector's namespace on :8443 with NAME's certificate,
# forwarding to the collector on loopback.
tls_proxy_start() {
    local name=$1 dir=$work/tls
    mkdir -p "$dir/nginx"
    cat > "$dir/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
pid $dir/nginx/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $dir/nginx/body;
    proxy_temp_path $dir/nginx/proxy;
    fastcgi_temp_path $dir/nginx/fastcgi;
    uwsgi_temp_path $dir/nginx/uwsgi;
    scgi_temp_path $dir/nginx/scgi;
    server {
        listen 8443 ssl;
        server_name collector.test;
        ssl_certificate $dir/$name.crt;
        ssl_certificate_key $dir/$name.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        # A batch is at most 8 MiB (nginx's default is 1 MiB).
        client_max_body_size 9m;
        location / {
            proxy_pass http://127.0.0.1:$port;
            proxy_http_version 1.1;
            # The client's Host, not the upstream's loopback one: the collector then treats the
            # request as from beyond loopback (reader key needed), which it is.
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
CONF
    ip netns exec "$(netns_name collector)" "$nginx" -p "$dir/nginx" -c "$dir/nginx/nginx.conf" -e stderr >> "$dir/nginx.log" 2>&1 &
    nginx_pid=$!
    local tries=100
    until on collector curl -s -o /dev/null -k "https://127.0.0.1:8443/"; do
        tries=$((tries - 1))
        if [ $tries -eq 0 ] || ! kill -0 "$nginx_pid" 2>/dev/null; then
            echo "sync: nginx did not start; its log:" >&2; tail -20 "$dir/nginx.log" >&2; exit 1
        fi
        sleep 0.1
    done
}
tls_proxy_stop() {
    kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""
}

# tls_device TRUST COMMAND…: COMMAND in device 1's namespace with collector.test in its /etc/hosts,
# and /etc/ssl/certs replaced by TRUST (a directory), or the machine's own when TRUST is "system";
# all in a private mount namespace that ends with COMMAND.
tls_device() {
    local trust=$1; shift
    on 1 unshare -m --propagation private sh -c '
        mount --bind "$1" /etc/hosts || exit 70
        if [ "$2" != system ]; then mount --bind "$2" /etc/ssl/certs || exit 70; fi
        shift 2; exec "$@"' tls-device "$work/tls/hosts" "$trust" "$@"
}

tls_scenario() {
    local dir=$work/tls
    kind=tls
    mkdir -p "$dir" "$work/$kind"
    echo "sync: --- https through nginx (TLS-terminating reverse proxy), test CA ---"
    nginx=$(tls_nginx)
    tls_certificates "$dir"
    collector_dir=$dir/collector
    collector_db=()
    port=8740
    collector_start
    tls_proxy_start collector.test

    local device=$dir/device url=https://collector.test:8443 code
    "$binary" simulate --sessions 450 --seed 4242 --quiet --data-dir "$device" > /dev/null
    code=$(collector_cli enrol tls-device --url "$url" | grep -oE '^  [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$' | head -1 | tr -d ' ')
    enrols() {
        tls_device "$dir/trust" "$binary" sync add "$url" --code "$code" --board desktop --data-dir "$device" > "$dir/add.log" 2>&1 \
            || { sed 's/^/sync: … sync add: /' "$dir/add.log"; tail -5 "$dir/nginx.log"; return 1; }
    }
    check "tls: a device that trusts the collector's CA enrols over https through nginx" enrols

    # The machine's own trust store does not hold the test CA: the handshake is refused.
    local line status
    line=$(tls_device system "$binary" sync now --data-dir "$device" 2>&1) && status=0 || status=$?
    note "system trust store: exit $status: $line"
    # The tls_failed line (docs/SYNC.md, Failures): the handshake, and the fix naming the trusted CAs.
    tls_line() { grep -q "^error: sync: the TLS handshake with collector.test:8443 failed: .*signed by a CA this device trusts" <<< "$1"; }
    untrusted() { [ "$status" -eq 79 ] && tls_line "$line" && grep -q "failed: its certificate is not signed by a CA this device trusts" <<< "$line"; }
    check "tls: with the machine's trust store (no test CA) sync now fails with tls_failed, exit 79" untrusted

    line=$(tls_device "$dir/trust" "$binary" sync now --data-dir "$device" 2>&1) && status=0 || status=$?
    note "pushed: exit $status: $line"
    local ids=$dir/device.ids
    sqlite3 "$device/chronoception.sqlite" "SELECT lower(id) FROM session WHERE status <> 'running' ORDER BY 1" > "$ids"
    all_arrived() {
        [ "$status" -eq 0 ] && [ -s "$ids" ] \
            && cmp -s "$ids" <(collector_sql "SELECT lower(id) FROM session ORDER BY 1") \
            && [ "$(sqlite3 "$device/chronoception.sqlite" "SELECT COUNT(*) FROM sync_outbox WHERE position > (SELECT cursor FROM sync_device)")" -eq 0 ]
    }
    local sent; sent=$(wc -l < "$ids")
    check "tls: sync now over https pushed all $sent finished sessions ($(( (sent + 199) / 200 )) batches), each once, nothing pending" all_arrived

    # Through the proxy the read API is not the local user's: the proxy passes the client's Host.
    local answer
    answer=$(on 1 curl -s --cacert "$dir/ca.crt" --resolve "collector.test:8443:$(collector_address 1)" "$url/api/v1/devices" || true)
    needs_key() { grep -q '"key_required"' <<< "$answer"; }
    check "tls: the read API through the proxy still needs a reader key" needs_key

    # The same proxy with a certificate for another host, from the same trusted CA: refused on the
    # name alone, nothing sent, the sessions stay pending.
    tls_proxy_stop
    tls_proxy_start elsewhere.test
    "$binary" simulate --sessions 20 --seed 4243 --quiet --data-dir "$device" > /dev/null
    local before
    before=$(collector_sql "SELECT COUNT(*) FROM session")
    line=$(tls_device "$dir/trust" "$binary" sync now --data-dir "$device" 2>&1) && status=0 || status=$?
    note "certificate for elsewhere.test: exit $status: $line"
    wrong_name() {
        [ "$status" -eq 79 ] && tls_line "$line" && grep -q "failed: its certificate names another host" <<< "$line" \
            && [ "$(collector_sql "SELECT COUNT(*) FROM session")" -eq "$before" ]
    }
    check "tls: a certificate naming another host fails with the tls_failed line, exit 79, nothing stored" wrong_name
    local status_line
    status_line=$("$binary" sync status --data-dir "$device" 2>&1 || true)
    echo "$status_line" | sed 's/^/sync: … status: /'
    status_says_tls() { grep -q "TLS handshake" <<< "$status_line" && [ "$(sqlite3 "$device/chronoception.sqlite" "SELECT COUNT(*) FROM sync_outbox WHERE position > (SELECT cursor FROM sync_device)")" -gt 0 ]; }
    check "tls: sync status says the TLS handshake failed; the new sessions stay pending" status_says_tls

    tls_proxy_stop
    collector_kill
}
