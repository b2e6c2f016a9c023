#!/usr/bin/env bash
# Runs a private Slurm (munged, slurmctld, one slurmd per host) on sim_cluster.sh's hosts for one command.
set -euo pipefail

# sim_cluster.sh starts COMMAND in the background of a script, so SIGINT arrives ignored, and bash
# cannot trap a signal ignored on entry: start again with SIGINT at its default.
if [[ -z ${SIM_SLURM_SIGINT_RESET:-} ]]; then
  SIM_SLURM_SIGINT_RESET=1 exec env --default-signal=INT bash "${BASH_SOURCE[0]}" "$@"
fi
unset SIM_SLURM_SIGINT_RESET

prog=sim_slurm.sh

usage() {
  cat <<'EOF'
Usage: scripts/sim_cluster.sh [cluster options] -- scripts/sim_slurm.sh [options] -- COMMAND [ARGS...]

Starts a Slurm cluster of its own on the simulated hosts of sim_cluster.sh: one munged, slurmctld
in the head namespace and one slurmd on every host of $SIM_HOSTS (through $SIM_ENTER), waits
until every node is idle, runs COMMAND in the head namespace with SLURM_CONF exported, then stops
every daemon and removes its directory (also on an error, SIGINT or SIGTERM). Needs root and the
Debian packages slurmctld, slurmd, slurm-client and munge. Nothing outside its own directory
(below $SIM_RUN_DIR, so it goes with the cluster whatever happens) is written: /etc/slurm,
/etc/munge and the system's munged are left alone.

Options:
  --cpus N        CPUs of each node in slurm.conf (default: $SIM_RANKS_PER_HOST, else 2); slurmd
                  believes the configuration (SlurmdParameters=config_overrides), so N may
                  exceed the machine's cores
  --wait S        seconds to wait for every node to be idle (default 30)
  --logs DIR      copy the daemons' logs and slurm.conf into DIR at the end
  -h, --help      this text

The cluster (slurm.conf in $SIM_SLURM_DIR):
  nodes           the hosts of $SIM_HOSTS, NodeAddr from the head's name resolution, in one
                  partition "sim" (the default), State=UNKNOWN until each slurmd registers
  controller      SlurmctldHost=<head's hostname>($SIM_HEAD_ADDR); SlurmUser=root
  authentication  one munged with a fresh random key; its socket (AuthInfo=socket=...) is a file
                  in that directory, reached from every host's namespaces
  plugins         ProctrackType=proctrack/linuxproc, TaskPlugin=task/none,
                  JobAcctGatherType=jobacct_gather/none, cgroup.conf CgroupPlugin=cgroup/v1
                  (slurmd 22.05 loads a cgroup plugin even when no plugin uses it; naming v1
                  spares the autodetection, which fails where /sys/fs/cgroup is not mounted);
                  MpiDefault=none, so MPI programs need srun --mpi=pmi2 (or mpiexec)

COMMAND runs with SLURM_CONF and SIM_SLURM_DIR exported, e.g.
  salloc -N 2 --ntasks-per-node=2 mpiexec -n 4 build/comops ...
  srun -N 2 --ntasks-per-node=2 --mpi=pmi2 build/comops ...
  sbatch --wait -N 2 --ntasks-per-node=2 scripts/examples/comops.sbatch

Exit status: COMMAND's; 2 bad usage, not root or not inside sim_cluster.sh; 3 Slurm could not be
started (the daemons' last log lines are printed).
EOF
}

die_usage() { echo "$prog: $*" >&2; exit 2; }
die_setup() { echo "$prog: $*" >&2; exit 3; }

cpus=${SIM_RANKS_PER_HOST:-2}
wait_s=30
logs_dir=
while (($#)); do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --cpus | --wait | --logs)
      (($# >= 2)) || die_usage "$1 needs a value"
      opt=$1 val=$2
      shift 2
      ;;
    --cpus=* | --wait=* | --logs=*)
      opt=${1%%=*} val=${1#*=}
      shift
      ;;
    --) shift; break ;;
    *) die_usage "unknown option '$1' (see --help)" ;;
  esac
  case $opt in
    --cpus)
      [[ $val =~ ^[0-9]+$ ]] && ((10#$val >= 1)) || die_usage "--cpus must be a positive integer, not '$val'"
      cpus=$((10#$val)) ;;
    --wait)
      [[ $val =~ ^[0-9]+$ ]] && ((10#$val >= 1)) || die_usage "--wait must be a positive number of seconds, not '$val'"
      wait_s=$((10#$val)) ;;
    --logs)
      [[ -n $val ]] || die_usage "--logs needs a directory"
      logs_dir=$val ;;
  esac
done
(($#)) || die_usage "no COMMAND given (usage: $prog [options] -- COMMAND [ARGS...])"
((EUID == 0)) || die_usage "needs root (it runs slurmctld, slurmd and munged)"
[[ -n ${SIM_HOSTS:-} && -n ${SIM_ENTER:-} && -n ${SIM_HEAD_ADDR:-} ]] ||
  die_usage "run it inside scripts/sim_cluster.sh (SIM_HOSTS, SIM_ENTER or SIM_HEAD_ADDR is not set)"
[[ $cpus =~ ^[0-9]+$ ]] && ((cpus >= 1)) || die_usage "SIM_RANKS_PER_HOST must be a positive integer, not '$cpus'"
for tool in munged munge slurmctld slurmd sinfo scontrol squeue scancel; do
  command -v "$tool" >/dev/null ||
    die_setup "'$tool' not found (Debian: apt-get install --no-install-recommends slurmctld slurmd slurm-client munge)"
done

read -r -a hosts <<<"$SIM_HOSTS"
((${#hosts[@]})) || die_usage "SIM_HOSTS is empty"

# Below sim_cluster's run directory, which goes with the cluster even if this script is killed
# (sim_cluster.sh's own clean-up kills what runs in the head with SIGKILL). That directory is
# 0700, and munged refuses a socket below a directory not everyone may search unless --force;
# every Slurm process here runs as root, so nobody else needs the socket.
dir=$(mktemp -d "${SIM_RUN_DIR:-/tmp}/sim_slurm.XXXXXX")
conf=$dir/slurm.conf
munge_sock=$dir/munge/munge.socket
started_munged=0
started_ctld=0
cmd_pid=

# log_tails: the last lines of every daemon log, for an error message.
log_tails() {
  local f
  for f in "$dir"/log/* "$dir/munge/munged.log"; do
    [[ -s $f ]] || continue
    echo "--- ${f#"$dir"/} (last lines)"
    tail -n 6 "$f"
  done
}

# host_pid_alive HOST PIDFILE: whether the process in PIDFILE lives (its PID is one of HOST's
# PID namespace, so it is looked up there).
host_pid_alive() {
  [[ -s $2 ]] && "$SIM_ENTER" "$1" bash -c 'kill -0 "$(cat "$1")"' _ "$2" 2>/dev/null
}

stop_daemons() {
  local t h alive
  if ((started_ctld)); then
    local jobs
    jobs=$(timeout 10 squeue -h -o %i 2>/dev/null)
    [[ -n $jobs ]] && timeout 10 scancel --quiet $jobs 2>/dev/null
    timeout 10 scontrol shutdown >/dev/null 2>&1  # slurmctld and every slurmd
  fi
  for ((t = 0; t < 50; t++)); do
    alive=0
    [[ -s $dir/run/slurmctld.pid ]] && kill -0 "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null && alive=1
    for h in "${hosts[@]}"; do host_pid_alive "$h" "$dir/run/slurmd.$h.pid" && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  if ((alive)); then
    [[ -s $dir/run/slurmctld.pid ]] && kill -KILL "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null
    for h in "${hosts[@]}"; do
      host_pid_alive "$h" "$dir/run/slurmd.$h.pid" &&
        "$SIM_ENTER" "$h" bash -c 'kill -KILL "$(cat "$1")"' _ "$dir/run/slurmd.$h.pid" 2>/dev/null
    done
  fi
  ((started_munged)) && munged --stop --socket="$munge_sock" >/dev/null 2>&1
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [[ -n $cmd_pid ]] && kill -0 "$cmd_pid" 2>/dev/null && kill -TERM "$cmd_pid" 2>/dev/null
  stop_daemons
  if [[ -n $logs_dir ]]; then
    mkdir -p "$logs_dir" && cp -r "$dir/log/." "$dir/munge/munged.log" "$conf" "$logs_dir/" 2>/dev/null
  fi
  rm -rf "$dir"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
chmod 0755 "$dir"
mkdir -p "$dir/munge" "$dir/log" "$dir/ctld" "$dir/run"
for h in "${hosts[@]}"; do mkdir -p "$dir/spool/$h"; done

# Node addresses as the head resolves them (sim_cluster.sh writes them into /etc/hosts).
declare -A addr_of
for h in "${hosts[@]}"; do
  addr_of[$h]=$(getent ahostsv4 "$h" | awk 'NR == 1 { print $1 }')
  [[ -n ${addr_of[$h]} ]] || die_setup "cannot resolve host '$h' from the head"
  name=$("$SIM_ENTER" "$h" hostname) || die_setup "cannot enter host '$h' with $SIM_ENTER"
  [[ $name == "$h" ]] || die_setup "host '$h' calls itself '$name': slurmd finds its node by hostname"
done

dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 0400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$munge_sock" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
  die_setup "munged did not start: $(tail -n 2 "$dir/munge/munged.log" 2>/dev/null | tr '\n' ' ')"
started_munged=1

{
  echo "# Written by $prog for one run on simulated hosts; see scripts/README.md."
  echo "ClusterName=sim"
  echo "SlurmctldHost=$(hostname)($SIM_HEAD_ADDR)"
  echo "SlurmUser=root"
  echo "SlurmdUser=root"
  echo "AuthType=auth/munge"
  echo "CredType=cred/munge"
  echo "AuthInfo=socket=$munge_sock"
  echo "StateSaveLocation=$dir/ctld"
  echo "SlurmdSpoolDir=$dir/spool/%n"
  echo "SlurmctldPidFile=$dir/run/slurmctld.pid"
  echo "SlurmdPidFile=$dir/run/slurmd.%n.pid"
  echo "SlurmctldLogFile=$dir/log/slurmctld.log"
  echo "SlurmdLogFile=$dir/log/slurmd.%n.log"
  echo "PlugStackConfig=$dir/plugstack.conf"
  echo "ProctrackType=proctrack/linuxproc"
  echo "TaskPlugin=task/none"
  echo "JobAcctGatherType=jobacct_gather/none"
  echo "AccountingStorageType=accounting_storage/none"
  echo "JobCompType=jobcomp/none"
  echo "SwitchType=switch/none"
  echo "MpiDefault=none"
  echo "SelectType=select/cons_tres"
  echo "SelectTypeParameters=CR_Core"
  echo "SlurmdParameters=config_overrides"
  echo "ReturnToService=2"
  echo "SlurmctldTimeout=30"
  echo "SlurmdTimeout=60"
  echo "InactiveLimit=0"
  echo "KillWait=5"
  echo "MinJobAge=30"
  for h in "${hosts[@]}"; do
    echo "NodeName=$h NodeAddr=${addr_of[$h]} CPUs=$cpus State=UNKNOWN"
  done
  echo "PartitionName=sim Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
} >"$conf"
echo "CgroupPlugin=cgroup/v1" >"$dir/cgroup.conf"
: >"$dir/plugstack.conf"
export SLURM_CONF=$conf SIM_SLURM_DIR=$dir

slurmctld -f "$conf" >"$dir/log/slurmctld.stderr" 2>&1 ||
  die_setup "slurmctld did not start: $(cat "$dir/log/slurmctld.stderr") $(log_tails)"
started_ctld=1
for h in "${hosts[@]}"; do
  "$SIM_ENTER" "$h" slurmd -f "$conf" >"$dir/log/slurmd.$h.stderr" 2>&1 ||
    die_setup "slurmd did not start on $h: $(cat "$dir/log/slurmd.$h.stderr")
$(log_tails)"
done

# Every node registered and idle, within the bound.
deadline=$((SECONDS + wait_s))
while :; do
  states=$(sinfo -h -N -o '%N %T' 2>/dev/null || true)
  idle=$(awk '$2 == "idle" { n++ } END { print n + 0 }' <<<"$states")
  ((idle == ${#hosts[@]})) && break
  if ((SECONDS >= deadline)); then
    echo "$prog: nodes not idle after $wait_s s: $(tr '\n' ' ' <<<"${states:-sinfo gave nothing}")" >&2
    log_tails >&2
    exit 3
  fi
  sleep 0.2
done

# In the background so that a trapped SIGTERM is handled at once; stdin passed on explicitly.
rc=0
"$@" <&0 &
cmd_pid=$!
wait "$cmd_pid" || rc=$?
cmd_pid=
exit "$rc"
