"""Seed 000 (Flich et al. 2002; scripts/exp_seed000.py): the paper's numbers our experiments are compared
with, as its tables and text give them."""

# Seed 000, Table 1: factor of throughput increase (ITB over UD), uniform traffic: (switches, bytes) -> min, max, avg
PAPER_T1 = {
    (8, 32): (0.90, 1.10, 0.97), (16, 32): (1.09, 1.63, 1.33), (32, 32): (1.66, 2.40, 2.00), (64, 32): (2.60, 3.89, 3.21),
    (8, 512): (0.81, 1.05, 0.92), (16, 512): (1.00, 1.50, 1.25), (32, 512): (1.44, 2.17, 1.76), (64, 512): (2.38, 3.25, 2.72),
    (8, 1024): (0.83, 1.13, 0.92), (16, 1024): (1.00, 1.50, 1.27), (32, 1024): (1.50, 2.01, 1.77),
    (64, 1024): (2.25, 3.20, 2.65),
}
# Table 2: percentage of message latency increase for low traffic, ITB over UD: (switches, bytes) -> min, max, avg
PAPER_T2 = {
    (8, 32): (-0.28, 7.86, 2.24), (16, 32): (7.31, 14.87, 10.32), (32, 32): (10.59, 14.16, 12.93),
    (64, 32): (10.12, 15.15, 12.69), (8, 512): (-0.02, 1.39, 0.48), (16, 512): (0.99, 2.73, 1.65),
    (32, 512): (1.19, 2.52, 1.82), (64, 512): (-1.12, 1.52, 0.42), (8, 1024): (0.00, 0.98, 0.22),
    (16, 1024): (-0.08, 1.15, 0.52), (32, 1024): (-2.22, 0.34, -0.85), (64, 1024): (-3.90, -1.34, -2.27),
}
# Table 3: factor of throughput increase for other traffic: (switches, pattern) -> min, max, avg (None: not given)
PAPER_T3 = {
    (8, "bit-reversal"): (0.86, 1.15, 0.99), (16, "bit-reversal"): (0.89, 2.00, 1.29),
    (32, "bit-reversal"): (1.64, 2.52, 2.00), (64, "bit-reversal"): (2.31, 3.56, 2.79),
    (8, "local3"): (0.84, 1.00, 0.93), (16, "local3"): (0.91, 1.09, 0.99), (32, "local3"): (0.91, 1.08, 1.01),
    (64, "local3"): (0.89, 1.01, 0.99), (8, "local5"): None, (16, "local5"): (1.05, 1.55, 1.32),
    (32, "local5"): (1.40, 1.63, 1.51), (64, "local5"): (1.32, 2.03, 1.60),
    (8, "hotspot"): (0.91, 1.10, 1.01), (16, "hotspot"): (1.00, 1.20, 1.09), (32, "hotspot"): (1.10, 1.62, 1.30),
    (64, "hotspot"): (1.58, 3.00, 2.21),
}
# hotspot share per network size (Flich et al. 2002, sec. 5.4.2: 30/20/15/5 % for 8/16/32/64 switches)
HOTSPOT = {8: 30, 16: 20, 32: 15, 64: 5}
# Sec. 5.5.1, uniform traffic: UD and ITB throughput (flits/ns/switch) as the text gives them
PAPER_REG = {"torus": (0.015, 0.03, 2.0), "express": (0.07, 0.12, 1.71), "cplant": (0.05, 0.082, 1.64)}
# Seed 000, Table 4: factor of throughput increase ITB/UD for hotspot traffic, ten hotspot locations:
# (network, percent) -> min, max, avg
PAPER_T4 = {("torus", 5): (2.00, 2.16, 2.13), ("torus", 10): (1.31, 1.40, 1.40), ("express", 3): (1.12, 1.17, 1.13),
            ("express", 5): (1.08, 1.08, 1.08), ("cplant", 5): (1.11, 1.32, 1.24)}
# Sec. 5.5.2 on the torus with express channels: throughput lost against uniform traffic, UD and ITB (percent)
PAPER_T4_EXPRESS_DROP = {3: (26, 50), 5: (49, 67)}
