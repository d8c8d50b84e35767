# Each device call of issue 56's session-1 proof: the first starts vnp-56.sh detached from a copy of the tree; every
# call waits up to WAIT_S for it to finish, then copies what it has kept to $OUT.
P=/tmp/p; mkdir -p $P
if [ ! -f $P/started ]; then
  rm -rf /tmp/w && cp -a . /tmp/w && touch $P/started
  setsid nohup bash /tmp/w/.devcarry/vnp-56.sh > $P/script.log 2>&1 < /dev/null &
fi
t0=$SECONDS
while [ ! -f $P/done ] && [ $((SECONDS - t0)) -lt ${WAIT_S:-570} ]; do sleep 5; done
cat $P/script.log
grep -aE "^\[plan\]|capacity sizes|\[run\]|capacity (v2.0 against|PROVISIONAL|FINAL|UNDECIDED|UNCHECKED)|held.out|✓|×|↓" $P/vnp.log 2>/dev/null | cut -c1-300 | tail -25
cd $P && tar -czf $OUT/p.tgz --exclude=p.tgz --exclude=started . 2>/dev/null; ls -la $OUT
