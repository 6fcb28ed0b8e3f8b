/** Type helpers shared by the compatibility tests (no runtime part). */

/** Compiles only when T is exactly `true`. */
export type Expect<T extends true> = T;
/** True when A is assignable to B (no distribution). */
export type Assignable<A, B> = [A] extends [B] ? true : false;
/**
 * The original's types with its const-enum members turned into their literal values: an app that
 * switches its import to ours gets our constants, which are those literals.
 */
type Opaque = MediaStreamTrack | HTMLElement | ArrayBuffer | Float32Array | MediaDeviceInfo | Error | MessagePort | PictureInPictureWindow;
export type DeepLit<T> =
  T extends string ? `${T}` :
  T extends number | boolean | null | undefined ? T :
  T extends Opaque ? T :
  T extends (...args: infer A) => infer R ? (...args: { [I in keyof A]: DeepLit<A[I]> }) => DeepLit<R> :
  T extends readonly unknown[] ? { [I in keyof T]: DeepLit<T[I]> } :
  T extends object ? { [K in keyof T]: DeepLit<T[K]> } : T;
/** True when no key of A is missing from B. */
export type HasKeys<A, B> = [Exclude<keyof A, keyof B>] extends [never] ? true : { missing: Exclude<keyof A, keyof B> };
/** The `option` object of a config type. */
export type Opt<T> = NonNullable<T extends { option?: infer O } ? O : never>;
/** Each value of a constants object as its string form. */
export type Values<T> = { [K in keyof T]: `${T[K] & (string | number)}` };
