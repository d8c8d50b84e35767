#!/bin/sh
# A no-op target for the harness-overhead benchmark: `noop_target.sh predict INPUT -o OUTPUT_DIR ...` writes the two
# result files with one row each and exits 0, so runTarget does all of its work (spawn, tree, outputs) around nothing.
in=$2
out=$4
stem=$(basename "$in")
stem=${stem%.*}
dir="$out/${stem}_merged"
mkdir -p "$dir"
printf 'Sequence_ID\tPrediction\tscore1\tscore2\ns_chunk_1F1\tvirus\t0.1\t0.9\n' > "$dir/prediction_results.txt"
printf 'Modified_ID\tIs_Virus\tmax_score_0\tmax_score_1\ns_chunk_1\tTrue\t0.1\t0.9\n' > "$dir/prediction_results_highestscore.csv"
