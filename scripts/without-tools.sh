#!/usr/bin/env bash
# Runs a command as on a fresh machine that lacks some of the optional tools (README, "Requirements"): in a mount
# namespace of its own (root only: `unshare -m`), each named tool's commands are masked by /dev/null (not a file, not
# executable: every PATH search passes over it) and its directories by an empty tmpfs, and its variables are unset.
# Nothing outside the command's namespace changes: the machine keeps its tools. Used to check that every test which
# needs one of them skips with its reason (or fails where VIRNUCPRO_BENCH_REQUIRE_TOOLS names it).
#
#   bash scripts/without-tools.sh chromium,torch,slurm -- npm test
set -euo pipefail

usage='usage: scripts/without-tools.sh TOOL[,TOOL...] -- COMMAND... (tools: chromium, torch, slurm)'
[ $# -ge 3 ] && [ "$2" = -- ] || { echo "$usage" >&2; exit 2; }
tools=$1
shift 2

if [ -z "${WITHOUT_TOOLS_INSIDE:-}" ]; then
  [ "$(id -u)" = 0 ] || { echo "without-tools: needs root (a mount namespace of its own, unshare -m)" >&2; exit 2; }
  exec env WITHOUT_TOOLS_INSIDE=1 unshare --mount --propagation private bash "$0" "$tools" -- "$@"
fi

masked=()
declare -A done_paths=()
mask() { # mask PATH: a command by /dev/null, a directory by an empty tmpfs; absent and masked paths are left alone
  local path
  path=$(readlink -f "$1") || return 0
  [ -e "$path" ] && [ -z "${done_paths[$path]:-}" ] || return 0
  if [ -d "$path" ]; then mount -t tmpfs -o size=64k,mode=755 without-tools "$path"; else mount --bind /dev/null "$path"; fi
  done_paths[$path]=1
  masked+=("$path")
}
mask_module() { # mask_module DIR NAME: Python would import an empty directory as a namespace package: it must not import
  mask "$1" && [ -n "${done_paths[$1]:-}" ] || return 0
  printf 'raise ModuleNotFoundError("No module named %s (hidden by scripts/without-tools.sh)", name="%s")\n' "'$2'" "$2" >"$1/__init__.py"
}
on_path() { # every file named $1 in PATH's directories and the usual sbin ones
  local dir
  for dir in ${PATH//:/ } /usr/sbin /sbin; do [ -e "$dir/$1" ] && echo "$dir/$1"; done
  return 0
}

IFS=, read -r -a wanted <<<"$tools"
for tool in "${wanted[@]}"; do
  case $tool in
    chromium)
      unset CHROMIUM
      for name in chromium chromium-browser google-chrome google-chrome-stable chrome; do
        for path in $(on_path "$name"); do mask "$path"; done
      done
      mask /usr/lib/chromium
      ;;
    torch) # the modules, in every python3 this machine has (PATH's and Debian's)
      for python in $(on_path python3) /usr/bin/python3; do
        for module in torch numpy; do
          # find_spec locates the package without importing it (importing torch takes seconds)
          dir=$("$python" -c "import importlib.util as u; print(u.find_spec('$module').submodule_search_locations[0])" 2>/dev/null) &&
            mask_module "$(readlink -f "$dir")" "$module"
        done
      done
      ;;
    slurm)
      unset SLURM_CONF
      for name in sinfo sbatch srun squeue scontrol scancel sacct salloc slurmctld slurmd slurmstepd munge munged; do
        for path in $(on_path "$name"); do mask "$path"; done
      done
      ;;
    *) echo "without-tools: unknown tool '$tool'; $usage" >&2; exit 2 ;;
  esac
done
echo "without-tools: hidden ${tools}: ${masked[*]:-nothing was there}" >&2
exec "$@"
