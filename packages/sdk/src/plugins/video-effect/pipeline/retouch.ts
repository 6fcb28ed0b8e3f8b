/**
 * The skin retouch GLSL shared by BasicBeauty and Beauty, per stage under its own prefix (so both can sit
 * in one fused pass): `vec3 <prefix>_retouch(vec3 color, vec3 smoothed, float smoothing, float brightening,
 * float ruddy)`. Edge-preserving smoothing — `smoothed` is a bilinear read of a quarter-size copy of the
 * frame (a 4×4-pixel box blur), mixed in only where it differs little from the pixel (fine skin texture
 * goes, strong edges stay); then a brightening curve that lifts mid-tones without clipping; then a rosy tint.
 */
export function retouchGlsl(prefix: string): string {
  return `
vec3 ${prefix}_retouch(vec3 color, vec3 smoothed, float smoothing, float brightening, float ruddy) {
  if (smoothing > 0.0) {
    const vec3 LUMA = vec3(0.299, 0.587, 0.114);
    float d = abs(dot(color - smoothed, LUMA));
    color = mix(color, smoothed, clamp(smoothing, 0.0, 1.0) * (1.0 - smoothstep(0.06, 0.2, d)));
  }
  // lifts mid-tones most, leaves black and white in place
  if (brightening > 0.0) color += brightening * 0.5 * color * (1.0 - color);
  if (ruddy > 0.0) {
    color.r = color.r + ruddy * 0.25 * (1.0 - color.r) * (0.3 + color.r);
    color.g = color.g * (1.0 - 0.08 * ruddy);
    color.b = color.b * (1.0 - 0.04 * ruddy);
  }
  return clamp(color, 0.0, 1.0);
}`;
}
