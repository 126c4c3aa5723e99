%define ARCH 01

%include "igzip_decode_block_stateless.asm"
