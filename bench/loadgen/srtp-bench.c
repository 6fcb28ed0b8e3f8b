/*
 * SRTP cost per packet of a libsrtp2 build (bench/README.md "Janus: where a forwarded packet's instructions go"):
 * protects n RTP packets of 1,100 bytes with AES-256-GCM (gcm=1, what Janus and browsers negotiate) or
 * AES-128-CM + HMAC-SHA1-80 (gcm=0). Build against libsrtp2's headers and run under the library to measure, e.g.
 *   gcc -O2 -I<libsrtp2 source>/include srtp-bench.c -o /tmp/srtp-bench -l:libsrtp2.so.1
 *   LD_LIBRARY_PATH=bin/libsrtp-openssl valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/srtp-bench 3000 1
 * (the difference between two n over the difference of n is instructions per packet).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "srtp.h"
int main(int argc, char **argv) {
  int n = atoi(argv[1]); int gcm = atoi(argv[2]);
  srtp_init();
  srtp_policy_t p; memset(&p, 0, sizeof p);
  unsigned char key[64]; for (int i = 0; i < 64; i++) key[i] = i * 7;
  if (gcm) { srtp_crypto_policy_set_aes_gcm_256_16_auth(&p.rtp); srtp_crypto_policy_set_aes_gcm_256_16_auth(&p.rtcp); }
  else { srtp_crypto_policy_set_rtp_default(&p.rtp); srtp_crypto_policy_set_rtcp_default(&p.rtcp); }
  p.ssrc.type = ssrc_any_outbound; p.key = key; p.window_size = 128;
  srtp_t s; if (srtp_create(&s, &p)) { puts("create failed"); return 1; }
  unsigned char buf[1500];
  for (int i = 0; i < n; i++) {
    memset(buf, 0x5a, sizeof buf); buf[0] = 0x80; buf[1] = 96; buf[2] = i >> 8; buf[3] = i; buf[8] = 1;
    int len = 1100;
    if (srtp_protect(s, buf, &len)) { puts("protect failed"); return 1; }
  }
  printf("ok %d\n", n);
  return 0;
}
