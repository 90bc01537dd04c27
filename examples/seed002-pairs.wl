sanfab-workload 1
# Etsion et al. 2000 Figs. 7 and 9: host i streams 16 messages of 16 KB to host i + 8 (i < 8), which takes them
repeat 16
  0-7 send +8 16384
end
8-15 recv -8 16
