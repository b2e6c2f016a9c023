#!/usr/bin/env bash
# Stands in for ssh as Hydra's -launcher-exec: skips ssh's options and the host name, then runs
# the proxy command on this machine. With a hostfile naming two made-up hosts, MPICH then sees
# two nodes on one machine (two Hydra proxies), without namespaces or root.
while [[ $# -gt 0 && $1 == -* ]]; do shift; done
shift  # the host
exec bash -c "$*"
