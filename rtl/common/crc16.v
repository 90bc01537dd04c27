// sanfab — one nibble step of CRC-16 (polynomial x^16 + x^12 + x^5 + 1, 0x1021, CCITT), MSB first:
// for each bit b of the nibble from bit 3 down to bit 0, fb = s[15] ^ b, s = s << 1, s ^= 0x1021 if fb.
// Purely combinational: crc_out is the state after feeding nib to crc_in (docs/mlc.md, Frames).
`default_nettype none

module crc16 (
    input  wire [15:0] crc_in,
    input  wire [3:0]  nib,
    output reg  [15:0] crc_out
);

    integer b;
    reg     fb;

    always @* begin
        crc_out = crc_in;
        fb      = 1'b0;
        for (b = 3; b >= 0; b = b - 1) begin
            fb      = crc_out[15] ^ nib[b];
            crc_out = {crc_out[14:0], 1'b0} ^ (fb ? 16'h1021 : 16'h0000);
        end
    end

endmodule

`default_nettype wire
