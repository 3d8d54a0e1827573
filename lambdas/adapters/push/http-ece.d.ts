/** The part of http_ece (Encrypted Content-Encoding for HTTP, RFC 8188/8291) the push sender uses; the package ships no types. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  export function encrypt(buffer: Buffer, params: { version: 'aes128gcm'; dh: string; privateKey: ECDH; salt: string; authSecret: string }): Buffer;
}
