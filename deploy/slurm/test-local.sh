#!/usr/bin/env bash
# End-to-end test of the Slurm scripts on this one machine (Debian/Ubuntu, as root):
#
#   bash deploy/slurm/test-local.sh
#
# 1. Installs slurm-wlm and munge with apt-get if they are missing (it leaves them
#    installed).
# 2. Starts a private one-node Slurm cluster: slurm.conf, state, logs and pid files
#    in a temporary folder (SLURM_CONF points at it; /etc/slurm is not touched), on
#    ports 16817/16818 so it does not clash with a Slurm already running here;
#    munged is started if it is not running (the key /etc/munge/munge.key is created
#    if missing). No systemd.
# 3. Runs a small job (two item sets, two statistics, a small book whose template is a
#    relative path) once on this machine (puzzlebook run), then through submit.sh
#    as 4 array tasks and a merge job, and checks that every output of the Slurm run
#    equals the single-machine one byte for byte, that each task made its own shard,
#    that the manifests agree and that `puzzlebook verify` passes.
# 4. Stops every daemon it started (also on failure or Ctrl-C) and removes the
#    temporary folder (kept on failure, for the logs; KEEP=1 keeps it always).
# Prints PASS or FAIL; the exit status is 0 only on PASS. It can run again at once.
#
# Environment: PUZZLEBOOK (binary; default: cargo build --release, then this
# checkout's target/release/puzzlebook), TIMEOUT (seconds to wait for the jobs, 300),
# SHARDS (4), SLURM_TEST_PORT (slurmctld port, 16817; slurmd uses the next one).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
timeout="${TIMEOUT:-300}"
shards="${SHARDS:-4}"
ctld_port="${SLURM_TEST_PORT:-16817}"
slurmd_port=$((ctld_port + 1))
t0=$(date +%s)

say() { printf '[test-local %3ds] %s\n' "$(($(date +%s) - t0))" "$*" >&2; }
failed=""
fail() {
    failed="$*"
    exit 1
}

[[ $EUID -eq 0 ]] || { echo "test-local.sh: run as root (it installs packages and starts daemons)" >&2; exit 2; }

# ---------------------------------------------------------------- 1. packages
export PATH="$PATH:/usr/sbin:/sbin"
need=()
for p in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-wlm munged:munge mungekey:munge; do
    command -v "${p%%:*}" >/dev/null 2>&1 || need+=("${p#*:}")
done
if ((${#need[@]})); then
    mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
    say "installing ${need[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt_log="$(mktemp /tmp/puzzlebook-slurm-apt.XXXXXX)"
    if ! { apt-get update -q && apt-get install -y -q "${need[@]}"; } >"$apt_log" 2>&1; then
        tail -n 20 "$apt_log" >&2
        echo "FAIL: apt-get install ${need[*]} failed (log: $apt_log)"
        exit 1
    fi
    rm -f "$apt_log"
fi
say "slurm $(slurmctld -V | awk '{print $2}'), $(munged -V 2>&1 | awk '{print $1; exit}')"

# ---------------------------------------------------------------- 2. the cluster
work="$(mktemp -d /tmp/puzzlebook-slurm-test.XXXXXX)"
chmod 755 "$work"
started_munged="" made_run_munge="" ctld_pid="" shard_id="" merge_id=""

stop_pid() { # name pid: SIGTERM, wait up to 15 s, then SIGKILL
    local name="$1" pid="$2" i
    [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    say "$name ($pid) did not stop: SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
}
pid_of() { [[ -s "$1" ]] && cat "$1" || true; }

cleanup() {
    local rc=$?
    set +e
    trap - EXIT INT TERM
    # Jobs first (after a failure), so no slurmstepd is left behind.
    if [[ $rc -ne 0 && -n "$shard_id$merge_id" ]] && kill -0 "$ctld_pid" 2>/dev/null; then
        scancel ${shard_id:-} ${merge_id:-} >/dev/null 2>&1
        sleep 1
    fi
    stop_pid slurmd "$(pid_of "$work/run/slurmd.pid")"
    stop_pid slurmctld "$(pid_of "$work/run/slurmctld.pid")"
    if [[ -n "$started_munged" ]]; then
        stop_pid munged "$started_munged"
        [[ -n "$made_run_munge" ]] && rm -rf /run/munge
    fi
    if [[ $rc -ne 0 ]]; then
        for f in "$work"/log/slurmctld.log "$work"/log/slurmd.log; do
            [[ -s "$f" ]] && { echo "--- last lines of $f" >&2; tail -n 15 "$f" >&2; }
        done
        for f in "$work"/job/slurm-out/logs/*.log; do
            [[ -s "$f" ]] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
        done
        echo "FAIL: ${failed:-exit status $rc} (after $(($(date +%s) - t0)) s; files kept in $work)"
        exit "$rc"
    fi
    if [[ "${KEEP:-}" == 1 ]]; then
        say "kept $work"
    else
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'failed="interrupted"; exit 130' INT TERM

mkdir -p "$work"/{etc,run,log,state/ctld,state/slurmd,job}
host="$(hostname -s)"
cpus="$(nproc)"
mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
mem_mb=$((mem_mb - (mem_mb / 10 > 512 ? mem_mb / 10 : 512)))  # headroom: 10 %, at least 512 MB
((mem_mb > 256)) || mem_mb=256
export SLURM_CONF="$work/etc/slurm.conf"
cat >"$SLURM_CONF" <<EOF
# One-node test cluster of deploy/slurm/test-local.sh
ClusterName=puzzlebook-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
MpiDefault=none
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/state/ctld
SlurmdSpoolDir=$work/state/slurmd
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
# Keep finished jobs visible to scontrol for an hour (there is no accounting).
MinJobAge=3600
SchedulerType=sched/backfill
# scrontab (deploy/slurm/puzzlebook.scrontab is installed and read back below).
ScronParameters=enable
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
say "cluster: node $host, $cpus CPUs, $mem_mb MB, config $SLURM_CONF"

# munge: the key, then munged unless one already answers.
if [[ ! -s /etc/munge/munge.key ]]; then
    say "creating the munge key /etc/munge/munge.key"
    mkdir -p /etc/munge
    mungekey -c -k /etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "munged is already running: using it"
else
    if [[ ! -d /run/munge ]]; then
        mkdir -p /run/munge
        made_run_munge=1
    fi
    chown munge:munge /run/munge
    chmod 755 /run/munge
    runuser -u munge -- munged --pid-file=/run/munge/munged.pid
    started_munged="$(pid_of /run/munge/munged.pid)"
    [[ -n "$started_munged" ]] || fail "munged did not start (see /var/log/munge/munged.log)"
    munge -n | unmunge >/dev/null || fail "munge does not work (see /var/log/munge/munged.log)"
    say "started munged ($started_munged)"
fi

slurmctld -f "$SLURM_CONF" -c -i || fail "slurmctld did not start"
for ((i = 0; i < 100; i++)); do [[ -s "$work/run/slurmctld.pid" ]] && break; sleep 0.1; done
ctld_pid="$(pid_of "$work/run/slurmctld.pid")"
[[ -n "$ctld_pid" ]] || fail "slurmctld wrote no pid file"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for ((i = 0; i < 100; i++)); do [[ -s "$work/run/slurmd.pid" ]] && break; sleep 0.1; done
[[ -n "$(pid_of "$work/run/slurmd.pid")" ]] || fail "slurmd wrote no pid file"
say "started slurmctld ($ctld_pid) and slurmd ($(pid_of "$work/run/slurmd.pid"))"

state=""
for ((i = 0; i < 60; i++)); do
    state="$(sinfo -h -N -n "$host" -o %T 2>/dev/null | head -n 1 || true)"
    [[ "$state" == idle ]] && break
    sleep 1
done
[[ "$state" == idle ]] || fail "the node $host is not idle after 60 s (sinfo says '${state:-nothing}')"
say "sinfo: node $host idle"

# ---------------------------------------------------------------- 3. the job
pb="${PUZZLEBOOK:-}"
if [[ -z "$pb" ]]; then
    if command -v cargo >/dev/null; then
        say "cargo build --release"
        (cd "$root" && cargo build --release --quiet) || fail "cargo build --release failed"
    fi
    pb="$root/target/release/puzzlebook"
fi
[[ -x "$pb" ]] || fail "no puzzlebook binary at $pb"
pb="$(realpath "$pb")"

cd "$work/job"
cat >job.toml <<'EOF'
# The small job of deploy/slurm/test-local.sh
seed = 2026
out_dir = "out"

[[output]]
name = "flip-4.jsonl"
kind = "items"
game = "flip"
count = 40
params = { size = "4" }

[[output]]
name = "numbrix-5.jsonl"
kind = "items"
game = "numbrix"
count = 20
params = { size = "5" }

[[output]]
name = "carcassonne-stats.csv"
kind = "carcassonne-stats"
samples = 400
tiles = [10, 30]

[[output]]
name = "catan-bias.csv"
kind = "catan-bias"
samples = 200000
samplers = "full-rejection,direct"

# A relative path: it resolves against the job file's folder.
[[output]]
name = "book.pdf"
kind = "book"
template = "templates/small.toml"
EOF
mkdir -p templates
cat >templates/small.toml <<'EOF'
title = "Slurm test book"
page_size = "a4"
seed = 7

[[section]]
game = "flip"
heading = "Flip"
count = 4
per_page = 2
params = { size = 4 }
EOF

say "single machine: puzzlebook run job.toml --out-dir single"
"$pb" run job.toml --out-dir single 2>"$work/log/single.log" || fail "the single-machine run failed (see $work/log/single.log)"

say "slurm: submit.sh job.toml slurm-out $shards"
ids="$(PUZZLEBOOK="$pb" "$here/submit.sh" job.toml slurm-out "$shards")" || fail "submit.sh failed"
shard_id="$(sed -n 's/^SHARD_JOB_ID=//p' <<<"$ids")"
merge_id="$(sed -n 's/^MERGE_JOB_ID=//p' <<<"$ids")"
[[ -n "$shard_id" && -n "$merge_id" ]] || fail "submit.sh printed no job ids: $ids"
say "submitted: shards job $shard_id (array 0-$((shards - 1))), merge job $merge_id"

# Wait for the merge job to end (it ends at once, cancelled, if a shard fails).
job_field() { # id field: the field of the job's record (of every task, for an array)
    scontrol -o show job "$1" 2>/dev/null | grep -o "\b$2=[^ ]*" | cut -d= -f2- || true
}
end=$(($(date +%s) + timeout))
merge_state="" last=""
while :; do
    merge_state="$(job_field "$merge_id" JobState)"
    shard_states="$(job_field "$shard_id" JobState | sort | uniq -c | awk '{printf "%s%s×%s", s, $1, $2; s=" "}')"
    now="shards: $shard_states; merge: ${merge_state:-?}"
    [[ "$now" != "$last" ]] && say "$now"
    last="$now"
    case "$merge_state" in
    COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL | DEADLINE | PREEMPTED) break ;;
    "") fail "scontrol does not know the merge job $merge_id" ;;
    esac
    if [[ "$(job_field "$merge_id" Reason)" == DependencyNeverSatisfied ]]; then
        fail "a shard failed: the merge job's dependency can never be satisfied"
    fi
    (($(date +%s) < end)) || fail "the jobs did not finish in $timeout s (TIMEOUT=...)"
    sleep 1
done

# ---------------------------------------------------------------- 4. checks
errors=()
while read -r st; do
    [[ "$st" == COMPLETED ]] || errors+=("a shard task ended $st")
done < <(job_field "$shard_id" JobState)
n_tasks="$(job_field "$shard_id" JobState | wc -l)"
[[ "$n_tasks" -eq "$shards" ]] || errors+=("$n_tasks shard tasks, not $shards")
[[ "$merge_state" == COMPLETED ]] || errors+=("the merge job ended $merge_state (exit $(job_field "$merge_id" ExitCode))")

logs="slurm-out/logs"
for ((k = 0; k < shards; k++)); do
    log="$logs/shard-${shard_id}_$k.log"
    if [[ ! -s "$log" ]]; then
        errors+=("no log $log")
    elif ! grep -q "(shard $k/$shards)" "$log"; then
        errors+=("task $k did not make shard $k/$shards (see $log)")
    fi
done
array_env="$(grep -h -o 'SLURM_ARRAY_TASK_COUNT=[^ ]*' "$logs/shard-${shard_id}_0.log" 2>/dev/null || true)"

# The outputs (only if the merge ran: else the errors above say why).
nfiles=0 nparts=0
if [[ "$merge_state" != COMPLETED ]]; then
    :
elif [[ ! -s slurm-out/manifest.json ]]; then
    errors+=("no slurm-out/manifest.json")
else

    for f in single/*; do
        name="$(basename "$f")"
        [[ "$name" == manifest.json ]] && continue
        nfiles=$((nfiles + 1))
        if [[ ! -f "slurm-out/$name" ]]; then
            errors+=("the Slurm run made no $name")
        elif ! cmp -s "$f" "slurm-out/$name"; then
            errors+=("$name differs: $(cmp "$f" "slurm-out/$name" 2>&1 || true)")
        fi
    done
    for f in slurm-out/*; do
        name="$(basename "$f")"
        case "$name" in manifest.json | parts | logs) continue ;; esac
        [[ -e "single/$name" ]] || errors+=("the Slurm run made $name, the single run did not")
    done
    # 6 outputs, one of them a book with its facts file beside it.
    ((nfiles == 7)) || errors+=("the single run made $nfiles files, not 7")
    nparts="$(find slurm-out/parts -name "*.part-*-of-*" | wc -l)"
    # 4 sharded outputs, and the book, made whole by one task.
    ((nparts == 4 * shards + 1)) || errors+=("$nparts part files, not $((4 * shards + 1))")

    # The manifests agree but for the timings, the job file's path and the seal (a hash of all of it).
    strip() { grep -v -e '"seconds":' -e '"job":' -e '"seal":' "$1"; }
    if ! diff <(strip single/manifest.json) <(strip slurm-out/manifest.json) >/dev/null 2>&1; then
        errors+=("the manifests differ (besides seconds and job path)")
    fi
    "$pb" verify slurm-out/manifest.json >"$work/log/verify.log" 2>&1 ||
        errors+=("puzzlebook verify slurm-out/manifest.json failed (see $work/log/verify.log)")
    grep -q "^ok " "$logs/merge-$merge_id.log" 2>/dev/null ||
        errors+=("the merge job's own verify printed nothing (see $logs/merge-$merge_id.log)")
fi

# The shipped scrontab. With scrontab (Slurm built with it; Debian's packages leave it
# out), slurmctld must accept the file, keep one job queued for it and list it back.
# Without it, slurmctld checks the #SCRON options as sbatch options of the same line
# (sbatch --test-only), and tests/cli/deploy.rs checks the schedule.
scron="$root/deploy/slurm/puzzlebook.scrontab"
if command -v scrontab >/dev/null 2>&1; then
    if ! scrontab "$scron" >"$work/log/scrontab.log" 2>&1; then
        errors+=("scrontab refused $scron: $(tr '\n' ' ' <"$work/log/scrontab.log")")
    else
        scrontab -l >"$work/log/scrontab-l.log" 2>&1 || true
        grep -q 'puzzlebook run /srv/puzzlebook/jobs/daily.toml --date tomorrow' "$work/log/scrontab-l.log" ||
            errors+=("scrontab -l does not list the daily line")
        squeue -h -o '%j %T' >"$work/log/scron-queue.log" 2>&1 || true
        grep -q '^puzzlebook-daily ' "$work/log/scron-queue.log" ||
            errors+=("no queued puzzlebook-daily job for the scrontab line")
        scrontab -r >/dev/null 2>&1 || true
        say "scrontab accepted it: $(tr '\n' ' ' <"$work/log/scron-queue.log")"
    fi
else
    {
        echo '#!/bin/sh'
        sed -n 's/^#SCRON /#SBATCH /p' "$scron"
        grep -v -e '^#' -e '^[[:space:]]*$' "$scron" | awk '{ $1=$2=$3=$4=$5=""; sub(/^ +/, ""); print }'
    } >"$work/scron.sh"
    if sbatch --test-only "$work/scron.sh" >"$work/log/scron-test.log" 2>&1; then
        say "the scrontab's options pass sbatch --test-only: $(tail -n 1 "$work/log/scron-test.log")"
    else
        errors+=("sbatch --test-only refused the scrontab's options: $(tr '\n' ' ' <"$work/log/scron-test.log")")
    fi
fi

if ((${#errors[@]})); then
    printf 'error: %s\n' "${errors[@]}" >&2
    fail "${#errors[@]} check(s) failed"
fi
say "array tasks saw ${array_env:-no SLURM_ARRAY_TASK_COUNT}"
say "$nfiles output files identical (cmp), $nparts parts, manifests agree, verify ok"
echo "PASS: $shards Slurm array tasks + merge = single-machine run, byte for byte ($(($(date +%s) - t0)) s)"
