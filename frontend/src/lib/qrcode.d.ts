/** The parts of `qrcode` (1.5) the app uses; the package ships no types. */
declare module 'qrcode' {
  interface QRCodeToStringOptions {
    readonly type?: 'svg' | 'utf8' | 'terminal';
    readonly margin?: number;
    readonly errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H';
  }
  const QRCode: { toString(text: string, options?: QRCodeToStringOptions): Promise<string> };
  export default QRCode;
}
