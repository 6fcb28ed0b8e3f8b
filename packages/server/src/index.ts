/**
 * @conclave/server: scheduling, WebSocket signalling and the embedded SFU in one process.
 * Import `startServer` to run it in-process (tests, embedding); the CLI is `conclave-server`.
 */
export { startServer, type RunningServer } from './server.js';
export {
  configFromEnv, resolveConfig, readConfigFile, ConfigError, DEV_SDKAPPID, DEFAULT_LIMITS, DEFAULT_STORAGE,
  type AppConfig, type BillingState, type CloudApiKey, type LimitsConfig, type ServerConfig, type ServerOverrides, type StorageConfig,
} from './config/config.js';
export { StoreError } from './store/store.js';
export { CustomMessageLimiter, KeyedRateLimiter, type MessageVerdict, type RateBudget } from './limits/rate-limiter.js';
export type { MediaEngine, SubscriptionWants, EngineStats } from './engine/media-engine.js';
export { EmbeddedEngine } from './engine/embedded/embedded-engine.js';
// Live transcription: the recognizer seam (an operator's own recognizer) and the word error rate that scores one.
export { LineRecognizer, pocketsphinxRecognizer, type LineRecognizerOptions } from './transcriber/line-recognizer.js';
export { RECOGNIZER_SAMPLE_RATE, type Recognizer, type RecognitionStream, type RecognitionResult, type RecognitionListener } from './transcriber/recognizer.js';
export { wordErrorRate } from './transcriber/word-error-rate.js';
