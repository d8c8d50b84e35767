# Sourced on the GPU machine: unpacks the VirNucPro stand-in (shared/tools/virnucpro-standin) and sets its environment.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
V=/tmp/vnp
if [ ! -d $V/virnucpro-broad ]; then
  mkdir -p $V && tar -xJf .devcarry/vnp.tar.xz -C $V
  t0=$SECONDS
  (cd $V/biopython && python3 setup.py build_ext --inplace -j 16 >/tmp/bio-build.log 2>&1 && rm -f pyproject.toml) || { echo "biopython build failed"; tail -20 /tmp/bio-build.log; }
  echo "biopython built in $((SECONDS - t0)) s" >&2
fi
export PYTHONPATH=$V/standin:$V/virnucpro-broad:$V/esm:$V/biopython
export VNP_FAKE_CACHE=/tmp/vnp-fake-cache HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
[ -f $V/virnucpro-broad/500_model.pth ] || (cd $V/virnucpro-broad && python3 $V/standin/make_mlp_weights.py . >/dev/null)
