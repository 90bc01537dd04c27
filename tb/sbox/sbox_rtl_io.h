// sanfab — the copy of one switch box's ports between sbox_in_t/sbox_out_t (cmodel/sbox.h) and a
// Verilated top, header-only C++, shared by the glue of the one-box top (tb/sbox/sbox_rtl.cpp: the
// ports rx_en, rx_d, ...) and of the two-box tree top (tb/sbox/sbox_tree_rtl.cpp: a_rx_en, b_rx_en, ...).
// PORTS and LINK_W are the box's parameters.
#ifndef SANFAB_SBOX_RTL_IO_H
#define SANFAB_SBOX_RTL_IO_H

#include "sbox.h"
#include "vrtl.h"

#include <cstdint>
#include <cstring>

// the inputs of one box: link pins and register port
template <typename EN, typename D, typename B1, typename A9, typename W16>
static void sbox_io_drive(unsigned PORTS, unsigned LINK_W, const sbox_in_t *in, EN &rx_en, D &rx_d, B1 &reg_rd,
                          B1 &reg_wr, A9 &reg_addr, W16 &reg_wdata)
{
    uint32_t en = 0;
    uint64_t d = 0;
    for (unsigned p = 0; p < PORTS; p++) {
        en |= (uint32_t)(in->rx_en[p] & 1u) << p;
        d |= (uint64_t)(in->rx_d[p] & ((1u << LINK_W) - 1u)) << (p * LINK_W);
    }
    uint32_t w[2] = {(uint32_t)d, (uint32_t)(d >> 32)};
    uint32_t e[2] = {en, 0};
    put_bits(rx_en, e);
    put_bits(rx_d, w);
    reg_rd = in->reg_rd & 1u;
    reg_wr = in->reg_wr & 1u;
    reg_addr = in->reg_addr & 0x1FFu;
    reg_wdata = in->reg_wdata;
}

// the outputs of one box
template <typename EN, typename D, typename B1, typename R32>
static void sbox_io_sample(unsigned PORTS, unsigned LINK_W, sbox_out_t *out, const EN &tx_en, const D &tx_d,
                           const B1 &reg_rvalid, const R32 &reg_rdata)
{
    std::memset(out, 0, sizeof *out);
    uint32_t e[2], w[2];
    get_bits(tx_en, e);
    get_bits(tx_d, w);
    uint64_t d = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
    for (unsigned p = 0; p < PORTS; p++) {
        out->tx_en[p] = (uint8_t)((e[0] >> p) & 1u);
        out->tx_d[p] = (uint8_t)((d >> (p * LINK_W)) & ((1u << LINK_W) - 1u));
    }
    out->reg_rvalid = reg_rvalid;
    out->reg_rdata = reg_rdata;
}

#endif
