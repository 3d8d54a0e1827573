import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';

/** A browser's side of Web Push for tests: its subscription keys, and the decryption of what it is sent (RFC 8291). */
export interface TestPushBrowser {
  readonly keys: { readonly p256dh: string; readonly auth: string };
  /** Opens an aes128gcm push body (base64) as the browser would; throws if it was not encrypted to these keys. */
  decrypt(bodyBase64: string): string;
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** Written from RFC 8291 §3.4 and RFC 8188 §2, apart from the `web-push` library the product encrypts with. */
export const testPushBrowser = (): TestPushBrowser => {
  const ecdh: ECDH = createECDH('prime256v1');
  const uaPublic = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    keys: { p256dh: uaPublic.toString('base64url'), auth: auth.toString('base64url') },
    decrypt(bodyBase64) {
      const body = Buffer.from(bodyBase64, 'base64');
      const salt = body.subarray(0, 16);
      const idlen = body[20] ?? 0;
      const asPublic = body.subarray(21, 21 + idlen);
      const ciphertext = body.subarray(21 + idlen);
      const ecdhSecret = ecdh.computeSecret(asPublic);
      const prkKey = hmac(auth, ecdhSecret);
      const ikm = hmac(prkKey, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]));
      const prk = hmac(salt, ikm);
      const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01')).subarray(0, 16);
      const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01')).subarray(0, 12);
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record: content, then the delimiter 2 and zero padding.
      let end = plain.length - 1;
      while (end >= 0 && plain[end] === 0) end -= 1;
      if (plain[end] !== 2) throw new Error('not a last aes128gcm record');
      return plain.subarray(0, end).toString('utf8');
    },
  };
};
