// Types of the two TinyH264 modules the worker uses (the package ships none).
declare module 'tinyh264/es/TinyH264.js' {
  const TinyH264: (options: { wasmBinary: ArrayBuffer }) => Promise<unknown>;
  export default TinyH264;
}
declare module 'tinyh264/es/TinyH264Decoder.js' {
  export default class TinyH264Decoder {
    constructor(module: unknown, onPictureReady: (data: Uint8Array, width: number, height: number) => void);
    decode(nal: Uint8Array): void;
    release(): void;
  }
}
