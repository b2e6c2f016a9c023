#!/usr/bin/env bash
# Builds N simulated hosts (Linux namespaces on a bridge) on this machine, runs a command on them, tears them down.
set -euo pipefail

self_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prog=sim_cluster.sh

usage() {
  cat <<'EOF'
Usage: scripts/sim_cluster.sh [options] -- COMMAND [ARGS...]

Builds N simulated hosts on this one Linux machine, runs COMMAND in a head namespace from which
mpiexec reaches the hosts, and tears everything down when COMMAND ends (or on an error, SIGINT or
SIGTERM). Needs root.

Each host simhI (I = 1..N) is a persistent process (PID 1 of its own namespaces) with its own
network, UTS (hostname simhI), IPC, PID and mount namespaces; the mount namespace has a private
/dev/shm and an /etc/hosts naming every host. Every process launched on host I enters the same
namespaces, so MPI ranks on one host share memory (UCX sysv/posix/cma) and ranks on different
hosts talk over TCP through eth0 (10.77.0.(10+I)/24), a veth on a bridge in the head namespace
(simhead, 10.77.0.1 on interface simbr; network, UTS, IPC and mount namespaces, no PID namespace
of its own). Nothing is routed outside; there is no default route.

Options:
  --hosts N           hosts (default 2, at most 200)
  --ranks-per-host K  slots per host in the hostfile (default 2)
  --delay-us D        added one-way delay per packet, on the egress of each host's eth0 (default 0)
  --loss PCT          percent of packets dropped on the egress of each host's eth0 (default 0),
                      e.g. 1 or 0.5
  --rate RATE         bandwidth cap per host egress (tc tbf), e.g. 1gbit, 200mbit (default none)
  --cpus-per-host C   give host I only CPUs (I-1)*C .. I*C-1 (modulo the machine's), as a real
                      node has cores of its own: comops then binds each host's ranks to that
                      host's CPUs and judges oversubscription per host. Default: every host sees
                      every CPU, so ranks of different hosts may share a core
  -h, --help          this text

Delay and loss come from a tc-BPF egress program (scripts/sim_cluster/delay_loss.bpf.c, compiled
with clang -target bpf into the run directory). This kernel has no netem and no fq, so the delay
is a busy wait in the sender's transmit path: each packet (a GSO packet up to 64 KiB counts as one)
leaves D us later, and packets sent back to back wait behind each other. A round trip between two
hosts therefore takes at least 2*D more; inside a host nothing is delayed.

COMMAND runs in the head namespace, in the current directory, with these variables exported:
  SIM_HOSTS       space-separated host names: "simh1 simh2 ..."
  SIM_HOSTFILE    MPICH hostfile, one "simhI:K" line per host
  SIM_LAUNCHER    ssh-like launcher for Hydra (-launcher ssh -launcher-exec $SIM_LAUNCHER):
                  $SIM_LAUNCHER [ssh options] HOST COMMAND... runs COMMAND with bash -c on HOST
  SIM_IFACE       head's interface for Hydra's -iface (simbr)
  SIM_HEAD_ADDR   head's address (10.77.0.1)
  SIM_MPIEXEC     ready prefix: mpiexec.hydra -f $SIM_HOSTFILE -launcher ssh
                  -launcher-exec $SIM_LAUNCHER -iface $SIM_IFACE   (so: $SIM_MPIEXEC -n 4 ./prog)
  SIM_ENTER       $SIM_ENTER HOST COMMAND [ARGS...] runs COMMAND (no shell) on HOST (a name or an address), in the
                  current directory
  SIM_RUN_DIR     the run's temporary directory (removed at the end)
  SIM_DELAY_US, SIM_LOSS_PCT, SIM_RATE, SIM_RANKS_PER_HOST, SIM_CPUS_PER_HOST   the options
                  in effect

Exit status: COMMAND's; 2 bad option or not root; 3 the cluster could not be built (namespaces,
veth, tc, clang). Runs are independent: every device, address and mount lives in the run's own
namespaces, so concurrent runs (parallel ctest) do not collide and need no lock.
EOF
}

die_usage() { echo "$prog: $*" >&2; exit 2; }
die_setup() { echo "$prog: $*" >&2; exit 3; }

hosts=2
ranks_per_host=2
delay_us=0
loss_pct=0
rate=
cpus_per_host=0  # 0: every host runs on all of the machine's CPUs
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --hosts | --ranks-per-host | --delay-us | --loss | --rate | --cpus-per-host)
      (($# >= 2)) || die_usage "$1 needs a value"
      opt=$1 val=$2
      shift 2
      ;;
    --hosts=* | --ranks-per-host=* | --delay-us=* | --loss=* | --rate=* | --cpus-per-host=*)
      opt=${1%%=*} val=${1#*=}
      shift
      ;;
    --) shift; break ;;
    *) die_usage "unknown option '$1' (see --help)" ;;
  esac
  case $opt in
    --hosts)
      [[ $val =~ ^[0-9]+$ ]] && ((val >= 1 && val <= 200)) || die_usage "--hosts must be 1..200, not '$val'"
      hosts=$((10#$val)) ;;
    --ranks-per-host)
      [[ $val =~ ^[0-9]+$ ]] && ((val >= 1)) || die_usage "--ranks-per-host must be a positive integer, not '$val'"
      ranks_per_host=$((10#$val)) ;;
    --delay-us)
      [[ $val =~ ^[0-9]+$ ]] && ((val <= 100000)) || die_usage "--delay-us must be an integer 0..100000, not '$val'"
      delay_us=$((10#$val)) ;;
    --loss)
      [[ $val =~ ^[0-9]+(\.[0-9]+)?$ ]] || die_usage "--loss must be a percentage such as 1 or 0.5, not '$val'"
      loss_ppm=$(awk -v p="$val" 'BEGIN { printf "%d", p * 10000 + 0.5 }')
      ((loss_ppm <= 1000000)) || die_usage "--loss must be at most 100, not '$val'"
      loss_pct=$val ;;
    --cpus-per-host)
      [[ $val =~ ^[0-9]+$ ]] && ((val >= 1 && val <= $(nproc))) ||
        die_usage "--cpus-per-host must be 1..$(nproc) (this machine's CPUs), not '$val'"
      cpus_per_host=$((10#$val)) ;;
    --rate)
      [[ $val =~ ^[0-9]+(\.[0-9]+)?([kmg]?(bit|bps))$ ]] || die_usage "--rate must be a tc rate such as 1gbit or 200mbit, not '$val'"
      rate=$val ;;
  esac
done
(($#)) || die_usage "no COMMAND given (usage: $prog [options] -- COMMAND [ARGS...])"
((EUID == 0)) || die_usage "needs root (network, UTS, IPC, PID and mount namespaces, veth, tc)"
loss_ppm=${loss_ppm:-0}
for tool in unshare nsenter ip tc pgrep mpiexec.hydra; do
  command -v "$tool" >/dev/null || die_setup "'$tool' not found (Debian: util-linux, iproute2, procps, mpich)"
done

run_dir=$(mktemp -d /tmp/sim_cluster.XXXXXX)
holders=()     # PIDs of the unshare processes (parents of the namespace inits)
cmd_pid=

# Killing a PID namespace's init kills every process in it; the head has no PID namespace, so
# whatever still runs in its network namespace is killed one by one. That leaves no process,
# device, address or mount behind: veths and the bridge vanish with their network namespaces.
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  exec 2>/dev/null  # bash would report each killed holder as "Killed"
  local p init head_net proc
  if [[ -n ${head_pid:-} ]] && head_net=$(readlink "/proc/$head_pid/ns/net"); then
    for proc in /proc/[0-9]*; do
      [[ $(readlink "$proc/ns/net") == "$head_net" ]] && kill -KILL "${proc#/proc/}"
    done
  fi
  for p in "${holders[@]}"; do
    for init in $(pgrep -P "$p"); do kill -KILL "$init"; done
    kill -KILL "$p"
  done
  for p in "${holders[@]}"; do wait "$p"; done
  rm -rf "$run_dir"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

head_addr=10.77.0.1
names=()
for ((i = 1; i <= hosts; i++)); do names+=("simh$i"); done

{
  echo "127.0.0.1 localhost"
  echo "$head_addr simhead"
  for ((i = 1; i <= hosts; i++)); do echo "10.77.0.$((10 + i)) simh$i"; done
} >"$run_dir/hosts"
for n in "${names[@]}"; do echo "$n:$ranks_per_host"; done >"$run_dir/hostfile"

# start_host NAME [PID]: a process that is the init of new network, UTS, IPC and mount namespaces
# (and, with PID, of a new PID namespace with its own /proc) with hostname NAME, a private
# /dev/shm, /etc/hosts and lo up. Sets init_pid to its PID as seen here. Not in a subshell:
# holders must reach cleanup. The head gets no PID namespace: setns() may only enter a PID
# namespace below the caller's, and the launcher enters the hosts' from the head.
start_host() {
  local name=$1 ready=$run_dir/$1.ready pid_ns=()
  [[ ${2:-} == PID ]] && pid_ns=(--pid --fork --mount-proc)
  unshare --net --uts --ipc --mount --propagation private "${pid_ns[@]}" \
    bash -c 'set -e
      hostname "$1"
      mount -t tmpfs -o mode=1777 sim_shm /dev/shm
      mount --bind "$2/hosts" /etc/hosts
      ip link set lo up
      : >"$2/$1.ready"
      exec -a "sim_cluster-$3-$1" sleep infinity' _ "$name" "$run_dir" "$$" \
    </dev/null >"$run_dir/$name.log" 2>&1 &
  holders+=($!)
  local holder=$! t
  for ((t = 0; t < 500; t++)); do
    [[ -e $ready ]] && break
    kill -0 "$holder" 2>/dev/null || break
    sleep 0.01
  done
  [[ -e $ready ]] || die_setup "cannot create the namespaces of $name: $(tr '\n' ' ' <"$run_dir/$name.log")"
  if ((${#pid_ns[@]})); then
    init_pid=$(pgrep -P "$holder")
    [[ -n $init_pid ]] || die_setup "cannot find the namespace init of $name"
  else
    init_pid=$holder
  fi
}

# in_ns PID CMD...: runs CMD in the network namespace of PID (setup only).
in_ns() { local p=$1; shift; nsenter -t "$p" --net -- "$@"; }

start_host simhead
head_pid=$init_pid
echo "simhead $head_pid" >"$run_dir/pids"
declare -A pid_of
ncpu=$(nproc)
i=0
for n in "${names[@]}"; do
  start_host "$n" PID
  pid_of[$n]=$init_pid
  cpus=all
  if ((cpus_per_host > 0)); then  # host I: CPUs (I-1)*C .. I*C-1, modulo the machine's
    cpus=$(for ((c = 0; c < cpus_per_host; c++)); do echo $(((i * cpus_per_host + c) % ncpu)); done | sort -nu | paste -sd,)
  fi
  echo "$n ${pid_of[$n]} $cpus" >>"$run_dir/pids"
  i=$((i + 1))
done

bpf_obj=
if ((delay_us > 0 || loss_ppm > 0)); then
  command -v clang >/dev/null || die_setup "--delay-us and --loss need clang (apt-get install clang)"
  multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
  bpf_obj=$run_dir/delay_loss.bpf.o
  clang -O2 -g -target bpf -I"/usr/include/$multiarch" -DDELAY_NS="$((delay_us * 1000))ULL" \
    -DLOSS_PPM="${loss_ppm}U" -c "$self_dir/sim_cluster/delay_loss.bpf.c" -o "$bpf_obj" \
    2>"$run_dir/clang.log" || die_setup "cannot compile the BPF program: $(head -3 "$run_dir/clang.log")"
fi

{
  in_ns "$head_pid" ip link add simbr type bridge
  in_ns "$head_pid" ip addr add "$head_addr/24" dev simbr
  in_ns "$head_pid" ip link set simbr up
  for ((i = 1; i <= hosts; i++)); do
    p=${pid_of[simh$i]}
    in_ns "$head_pid" ip link add "vh$i" type veth peer name eth0 netns "$p"
    in_ns "$head_pid" ip link set "vh$i" master simbr up
    in_ns "$p" ip addr add "10.77.0.$((10 + i))/24" dev eth0
    in_ns "$p" ip link set eth0 up
    if [[ -n $bpf_obj ]]; then
      in_ns "$p" tc qdisc add dev eth0 clsact
      in_ns "$p" tc filter add dev eth0 egress bpf direct-action obj "$bpf_obj" sec tc
    fi
    if [[ -n $rate ]]; then
      in_ns "$p" tc qdisc add dev eth0 root tbf rate "$rate" burst 128kb latency 100ms
    fi
  done
} >"$run_dir/net.log" 2>&1 || die_setup "cannot build the network: $(tail -2 "$run_dir/net.log" | tr '\n' ' ')"

# enter HOST CMD...: runs CMD in every namespace of HOST, in the caller's directory.
cat >"$run_dir/enter" <<EOF
#!/usr/bin/env bash
# Runs a command on a simulated host of sim_cluster.sh: enter HOST COMMAND [ARGS...]; HOST is a
# name (simh2) or an address (10.77.0.12)
set -euo pipefail
((\$# >= 2)) || { echo "enter: usage: enter HOST COMMAND [ARGS...]" >&2; exit 2; }
# A host given by its address (a hostfile of addresses) is the host of that address.
host=\$(awk -v a="\$1" '\$1 == a { print \$2 }' "$run_dir/hosts")
[[ -n \$host ]] && set -- "\$host" "\${@:2}"
pid=\$(awk -v h="\$1" '\$1 == h { print \$2 }' "$run_dir/pids")
cpus=\$(awk -v h="\$1" '\$1 == h { print \$3 }' "$run_dir/pids")
[[ -n \$pid ]] || { echo "enter: unknown host '\$1'" >&2; exit 255; }
shift
pid_ns=(--pid)
[[ \$pid == "\$(awk '\$1 == "simhead" { print \$2 }' "$run_dir/pids")" ]] && pid_ns=()
affinity=()
[[ -n \$cpus && \$cpus != all ]] && affinity=(taskset -c "\$cpus")
exec "\${affinity[@]}" nsenter -t "\$pid" --net --uts --ipc --mount --root "\${pid_ns[@]}" --wd="\$PWD" -- "\$@"
EOF
# ssh [ssh options] HOST COMMAND...: what Hydra's ssh launcher calls; like ssh, it joins COMMAND's
# words with spaces and hands the line to a shell on HOST.
cat >"$run_dir/ssh" <<EOF
#!/usr/bin/env bash
# ssh look-alike for Hydra (-launcher ssh -launcher-exec): ssh [OPTIONS] HOST COMMAND...
set -euo pipefail
while ((\$#)) && [[ \$1 == -* ]]; do
  case \$1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
    *) shift ;;
  esac
done
((\$# >= 2)) || { echo "ssh (sim_cluster): usage: ssh [OPTIONS] HOST COMMAND..." >&2; exit 255; }
host=\$1
shift
exec "$run_dir/enter" "\$host" bash -c "\$*"
EOF
chmod +x "$run_dir/enter" "$run_dir/ssh"

export SIM_HOSTS="${names[*]}"
export SIM_HOSTFILE=$run_dir/hostfile
export SIM_LAUNCHER=$run_dir/ssh
export SIM_IFACE=simbr
export SIM_HEAD_ADDR=$head_addr
export SIM_MPIEXEC="mpiexec.hydra -f $SIM_HOSTFILE -launcher ssh -launcher-exec $SIM_LAUNCHER -iface $SIM_IFACE"
export SIM_ENTER=$run_dir/enter
export SIM_RUN_DIR=$run_dir
export SIM_DELAY_US=$delay_us SIM_LOSS_PCT=$loss_pct SIM_RATE=$rate SIM_RANKS_PER_HOST=$ranks_per_host
export SIM_CPUS_PER_HOST=$cpus_per_host

# In the background so that a trapped SIGTERM is handled at once; stdin passed on explicitly.
rc=0
nsenter -t "$head_pid" --net --uts --ipc --mount --root --wd="$PWD" -- "$@" <&0 &
cmd_pid=$!
wait "$cmd_pid" 2>/dev/null || rc=$?  # no "Killed" job notice; the status says it
exit "$rc"
