import { EXTRA_CODE } from '../../../constants/error-code.js';
import { envNotSupported, invalidOperation, invalidParameter } from '../../../errors/catalogue.js';
import type { PluginCore } from '../../../types.js';
import type { CameraInfo, VideoPluginContext } from '../../../plugin-api/video.js';
import { EffectPipeline } from './pipeline.js';
import type { EffectStage } from './stage.js';

/** The key of the one pipeline in the client's shared plugin storage. */
const PIPELINE_KEY = 'video-effect-pipeline';

/** The client's video context, from the core handed to the plugin. */
export function videoContextOf(core: PluginCore, functionName: string): VideoPluginContext {
  const video = (core as Partial<PluginCore>).video;
  if (!video) throw envNotSupported(EXTRA_CODE.PLUGIN, 'this SDK build offers no video context to plugins', functionName);
  return video;
}

/**
 * Runs a plugin method; an RtcError it throws (built with this file's own copy of the class) is rebuilt
 * with the core's (context.errors), so the app gets the same class as from the core.
 */
export async function guarded<T>(core: PluginCore, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    const e = error as { name?: unknown; code?: unknown; extraCode?: number; functionName?: string; message?: string; data?: unknown };
    if (e?.name !== 'RtcError' || typeof e.code !== 'number' || typeof core.errors !== 'function') throw error;
    const message = (e.message ?? '').replace(/ <[A-Z_]+ 0x[0-9a-f]+( extraCode:-?\d+)?>$/, '');
    throw core.errors({ code: e.code, extraCode: e.extraCode, message, functionName: e.functionName, ...(e.data === undefined ? {} : { data: e.data }) });
  }
}

/** The camera, or INVALID_OPERATION 5105 when it is not on (as the original's effects require). */
export function requireCamera(video: VideoPluginContext, functionName: string): CameraInfo {
  const camera = video.camera();
  if (!camera) throw invalidOperation(EXTRA_CODE.NEED_VIDEO, 'the camera is not on: call startLocalVideo() first', functionName);
  return camera;
}

/**
 * The client's one effect pipeline, shared by every effect plugin file through the video context (the
 * first plugin to need it creates it).
 */
export function pipelineOf(video: VideoPluginContext): EffectPipeline {
  let pipeline = video.shared.get(PIPELINE_KEY) as EffectPipeline | undefined;
  if (!pipeline) {
    pipeline = new EffectPipeline();
    video.shared.set(PIPELINE_KEY, pipeline);
  }
  return pipeline;
}

/**
 * Puts a stage in the pipeline (replacing one of the same name) and, if the camera did not go through the
 * pipeline yet, routes it there (a track swap on the senders).
 */
export async function applyStage(video: VideoPluginContext, stage: EffectStage, functionName: string): Promise<void> {
  const pipeline = pipelineOf(video);
  pipeline.set(stage);
  if (video.cameraProcessor !== pipeline) {
    try {
      await video.setCameraProcessor(pipeline, functionName);
    } catch (error) {
      pipeline.remove(stage.name);
      throw error instanceof Error && error.message === 'webgl context create failed'
        ? invalidOperation(undefined, 'webgl context create failed', functionName) : error;
    }
  }
}

/** Takes a stage out; with none left the camera goes straight to the encoder again. */
export async function removeStage(video: VideoPluginContext, name: EffectStage['name'], functionName: string): Promise<void> {
  const pipeline = pipelineOf(video);
  pipeline.remove(name);
  if (pipeline.isEmpty && video.cameraProcessor === pipeline) await video.setCameraProcessor(undefined, functionName);
}

/** Checks that options is an object; INVALID_PARAMETER otherwise. */
export function requireObject(options: unknown, name: string, functionName: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidParameter(EXTRA_CODE.TYPE, `${name} must be an object`, functionName);
  }
  return options as Record<string, unknown>;
}

/** A number option in [min, max] (or undefined when absent); INVALID_PARAMETER otherwise. */
export function numberIn(options: Record<string, unknown>, key: string, min: number, max: number, functionName: string): number | undefined {
  const value = options[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value)) throw invalidParameter(EXTRA_CODE.TYPE, `${key} must be a number`, functionName);
  if (value < min || value > max) throw invalidParameter(EXTRA_CODE.RANGE, `${key} must be between ${min} and ${max}`, functionName);
  return value;
}
