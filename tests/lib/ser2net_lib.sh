# ser2net on localhost in front of iowatt's emulators (sourced after lib.sh and meters_lib.sh).

S2N_PID=""
S2N_RFC=""
S2N_RAW=""

# Every test here needs ser2net; tests/deps.sh installs it (Debian 12: 4.3.11).
s2n_need() {
	command -v ser2net >/dev/null 2>&1 && return 0
	echo "1..0 # skip ser2net is not installed (tests/deps.sh installs it: apt-get install ser2net)"
	exit 0
}

s2n_cleanup() {
	[ -n "$S2N_PID" ] && kill "$S2N_PID" 2>/dev/null && wait "$S2N_PID" 2>/dev/null
	S2N_PID=""
	emu_cleanup
}
trap s2n_cleanup EXIT

# A TCP port free on 127.0.0.1 now (the kernel's choice, so parallel tests do not collide).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# port_from FILE: the port that a test server writes to FILE once it listens (10 s at most).
port_from() {
	local i
	for i in $(seq 1 200); do
		[ -s "$1" ] && cat "$1" && return 0
		sleep 0.05
	done
	return 1
}

listening() { # PORT: something listens on 127.0.0.1:PORT
	ss -Hltn "sport = :$1" 2>/dev/null | grep -q .
}

# s2n_start LINK [RFC_PORT RAW_PORT]: ser2net serving the pty LINK as RFC 2217 on
# S2N_RFC and raw TCP on S2N_RAW (new free ports unless given), once both listen.
s2n_start() {
	local link=$1 i
	S2N_RFC=${2:-$(free_port)}
	S2N_RAW=${3:-$(free_port)}
	# One YAML connection per accepter; ser2net opens the pty when a client connects
	# and closes it when it leaves. kickolduser: a reconnecting iowatt is never locked
	# out by its own dead session. mdns off: Debian 13's ser2net announces each port
	# through avahi by default and, where no avahi daemon runs (a CI machine, a chroot),
	# fails "Unable to start mdns: Out of memory" and serves nothing.
	cat >"$T/ser2net.yaml" <<EOF
connection: &rfc2217
  accepter: telnet(rfc2217),tcp,127.0.0.1,$S2N_RFC
  connector: serialdev,$link,115200n81,local
  options:
    kickolduser: true
    mdns: false
connection: &raw
  accepter: tcp,127.0.0.1,$S2N_RAW
  connector: serialdev,$link,115200n81,local
  options:
    kickolduser: true
    mdns: false
EOF
	# -n: in the foreground (its pid is ours to stop); -u: no UUCP lock files.
	ser2net -n -u -c "$T/ser2net.yaml" -P "$T/ser2net.pid" >>"$T/ser2net.log" 2>&1 &
	S2N_PID=$!
	for i in $(seq 1 200); do
		listening "$S2N_RFC" && listening "$S2N_RAW" && return 0
		kill -0 "$S2N_PID" 2>/dev/null || break
		sleep 0.05
	done
	sed 's/^/#   ser2net: /' "$T/ser2net.log" | tail -n 5
	return 1
}

s2n_stop() {
	[ -n "$S2N_PID" ] || return 0
	kill "$S2N_PID" 2>/dev/null
	wait "$S2N_PID" 2>/dev/null
	S2N_PID=""
}
