# A fresh Debian 12 root for CI, as a newcomer's new machine: Debian's minbase from this machine's
# own apt sources, a clone of the checkout in /root/comops, the mounts the tests need, and the
# machine's host name resolving inside. Sourced by .ci/run (bash, root); the functions:
#   fresh_root_make DIR CHECKOUT   make the root in DIR (absent or empty) with CHECKOUT cloned
#   fresh_root_run DIR COMMAND     run COMMAND (one bash -c string) as root in /root/comops,
#                                  with a login's minimal environment; returns its exit status
#   fresh_root_share_ccache DIR    ccache and ninja inside, this machine's ccache folder shared
#   FRESH_ROOT_CCACHE_ENV          a command's prefix: its CMake builds through ccache
#   fresh_root_remove DIR          end every process inside, unmount, delete (safe to repeat)

# The apt sources files of Debian's own archive on this machine (the ones signed by Debian's
# keyring), so that the root is made from what this machine reaches, naming no host here.
fresh_root_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] && grep -q debian-archive-keyring "$f" && echo "$f"
  done
  return 0
}

fresh_root_make() {
  local dir=$1 checkout=$2 sources
  mapfile -t sources < <(fresh_root_sources)
  if ((${#sources[@]} == 0)); then
    echo "fresh_root: error: no apt sources file of Debian's archive (signed by debian-archive-keyring) in /etc/apt" >&2
    return 1
  fi
  if ! command -v mmdebstrap >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null ||
      { echo "fresh_root: error: cannot install mmdebstrap" >&2; return 1; }
  fi
  mmdebstrap --quiet --variant=minbase bookworm "$dir" "${sources[@]}" ||
    { echo "fresh_root: error: mmdebstrap failed" >&2; return 1; }
  # What a new machine has: a resolver, and its own name in /etc/hosts (Hydra needs it).
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  hostname >"$dir/etc/hostname"
  printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\tlocalhost ip6-localhost ip6-loopback\n' \
    "$(hostname)" >"$dir/etc/hosts"
  git clone --quiet --no-hardlinks "$checkout" "$dir/root/comops" ||
    { echo "fresh_root: error: cannot clone $checkout" >&2; return 1; }
  fresh_root_mount "$dir"
}

# The root as a mount point of its own (unshare --propagation, which the simulated hosts use,
# refuses a root that is not one), /proc, /sys with its cgroups, /dev with /dev/shm and /dev/pts,
# and a fresh /run (network namespaces live in /run/netns). rslave: nothing unmounted inside
# reaches this machine's own mounts.
fresh_root_mount() {
  local dir=$1
  mount --bind "$dir" "$dir"
  mount --make-private "$dir"
  mount -t proc proc "$dir/proc"
  mount --rbind /sys "$dir/sys"
  mount --make-rslave "$dir/sys"
  mount --rbind /dev "$dir/dev"
  mount --make-rslave "$dir/dev"
  mount -t tmpfs -o mode=755 tmpfs "$dir/run"
}

fresh_root_run() {
  local dir=$1 command=$2
  chroot "$dir" /usr/bin/env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM=dumb \
    LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd /root/comops && $command" </dev/null
}

# ccache and ninja installed inside, and this machine's ccache folder bound at the root's, so
# that a build inside (the README's, the Open MPI build, the A/B job's base) reuses what an
# earlier build or CI run compiled: the root is made from the same apt sources, so its compiler
# and headers are the same. A machine without ccache keeps CI's cache in FRESH_ROOT_CCACHE.
# Neither tool is one the project needs: setup.sh installs every package it builds with, and its
# builds use neither unless told (FRESH_ROOT_CCACHE_ENV).
FRESH_ROOT_CCACHE=/var/cache/comops-ci/ccache
fresh_root_share_ccache() {
  local dir=$1 cache=$FRESH_ROOT_CCACHE
  fresh_root_run "$dir" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ccache ninja-build >/dev/null" ||
    { echo "fresh_root: error: cannot install ccache and ninja-build" >&2; return 1; }
  if command -v ccache >/dev/null; then cache=$(ccache --get-config cache_dir) || return 1; fi
  mkdir -p "$cache" "$dir/root/.cache/ccache"
  mount --bind "$cache" "$dir/root/.cache/ccache"
}

# The prefix of a command whose CMake builds compile through ccache (CMake reads
# CMAKE_<LANG>_COMPILER_LAUNCHER from the environment), paths relative to the checkout so that
# another checkout of the same sources hits.
FRESH_ROOT_CCACHE_ENV="export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=/root/comops; "

# The processes whose root directory is DIR (or below it).
fresh_root_processes() {
  local dir=$1 p root
  for p in /proc/[0-9]*; do
    root=$(readlink "$p/root" 2>/dev/null) || continue
    [[ $root == "$dir" || $root == "$dir"/* ]] && echo "${p#/proc/}"
  done
  return 0
}

# The mount points at DIR or below it.
fresh_root_mounts() {
  awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' /proc/self/mountinfo
}

fresh_root_remove() {
  local dir=$1 pids
  [[ -d $dir ]] || return 0
  mapfile -t pids < <(fresh_root_processes "$dir")
  if ((${#pids[@]})); then
    echo "fresh_root: ending ${#pids[@]} process(es) left in $dir: ${pids[*]}" >&2
    kill -KILL "${pids[@]}" 2>/dev/null
    sleep 1
  fi
  # Inner mounts first (network namespaces, tmpfs of the tests), then the root itself.
  local m
  while read -r m; do
    umount -l "$m" 2>/dev/null
  done < <(fresh_root_mounts "$dir" | sort -r)
  if [[ -n $(fresh_root_mounts "$dir") ]]; then
    echo "fresh_root: error: $dir still has mounts; not deleting it" >&2
    return 1
  fi
  rm -rf --one-file-system "$dir"
}
