// sanfab — one byte step of CRC-8 (polynomial x^8 + x^2 + x + 1, MSB first).
// Purely combinational: crc_out is the state after feeding data to crc_in.
`default_nettype none

module crc8 (
    input  wire [7:0] crc_in,
    input  wire [7:0] data,
    output wire [7:0] crc_out
);

    // x = crc_in ^ data, shifted through eight steps of the LFSR; unrolled by hand.
    wire [7:0] x = crc_in ^ data;

    assign crc_out[0] = x[0] ^ x[6] ^ x[7];
    assign crc_out[1] = x[0] ^ x[1] ^ x[6];
    assign crc_out[2] = x[0] ^ x[1] ^ x[2] ^ x[6];
    assign crc_out[3] = x[1] ^ x[2] ^ x[3] ^ x[7];
    assign crc_out[4] = x[2] ^ x[3] ^ x[4];
    assign crc_out[5] = x[3] ^ x[4] ^ x[5];
    assign crc_out[6] = x[4] ^ x[5] ^ x[6];
    assign crc_out[7] = x[5] ^ x[6] ^ x[7];

endmodule

`default_nettype wire
