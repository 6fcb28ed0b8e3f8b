import { CDN_CODE, CDN_COMMANDS, SERVER_CODE, type CdnCommand, type CdnCommandMap, type CdnStartData, type CdnStartReply, type CdnStopData } from '@conclave/protocol';
import type { ServerContext } from '../context.js';
import { formatIssues } from '../config/schema.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import { InvalidMessage } from '../signal/validate.js';
import { cdnStartSchema, inputsOf, MixRuleError, pipelineOf, targetUrl } from './cdn-spec.js';
import type { JobKind, MediaJob } from './media-job.js';

/** The session a CDN command comes from (throws when it has not joined). */
export type JobCaller = () => { participant: Participant; room: Room };
export type JobHandler = (ctx: ServerContext, caller: JobCaller, data: Record<string, unknown>) => Promise<CdnCommandMap[CdnCommand]['reply']>;

const KIND: Record<CdnStartData['publishMode'], JobKind> = {
  PublishMainStreamToCDN: 'cdn-main', PublishSubStreamToCDN: 'cdn-sub', PublishMixStreamToCDN: 'cdn-mix',
};

/** A coded reply (the session sends InvalidMessage's code and message). */
const fail = (code: number, message: string) => new InvalidMessage(message, undefined, code);

function parseStart(data: Record<string, unknown>): CdnStartData {
  const parsed = cdnStartSchema.safeParse(data);
  if (!parsed.success) throw fail(SERVER_CODE.INVALID_PARAMETER, formatIssues(parsed.error));
  return parsed.data as CdnStartData;
}

function jobOf(ctx: ServerContext, room: Room, participant: Participant, mode: CdnStartData['publishMode']): MediaJob | undefined {
  return ctx.jobs.find((job) => job.options.roomKey === room.key && job.options.ownerId === participant.id && job.options.kind === KIND[mode])[0];
}

async function start(ctx: ServerContext, caller: JobCaller, raw: Record<string, unknown>): Promise<CdnStartReply> {
  const data = parseStart(raw);
  const { participant, room } = caller();
  const isMix = data.publishMode === 'PublishMixStreamToCDN';
  let inputs;
  try {
    inputs = inputsOf(data, participant.userId);
  } catch (error) {
    if (error instanceof MixRuleError) throw fail(SERVER_CODE.INVALID_PARAMETER, error.message);
    throw error;
  }
  const suffix = data.publishMode === 'PublishSubStreamToCDN' ? 'aux' : 'main';
  const url = targetUrl(data, ctx.config.media.rtmpIngest, `${room.sdkAppId}_${room.ref}_${participant.userId}_${suffix}`);
  if (!url) throw fail(SERVER_CODE.INVALID_PARAMETER, 'target.url is required (this server has no default RTMP ingest for a streamId)');
  // A second start of the same mode replaces the first.
  const previous = jobOf(ctx, room, participant, data.publishMode);
  if (previous) await ctx.jobs.stop(previous.id);
  try {
    const job = await ctx.jobs.start({
      kind: KIND[data.publishMode], sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref,
      ownerId: participant.id, ownerUserId: participant.userId,
      spec: pipelineOf(data), outputs: () => [{ type: 'rtmp', url }], inputs,
    });
    return { jobId: job.id, url: url.replace(/\?.*$/, '') };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const rtmp = !isMix || /rtmp/i.test(reason) || /no output/.test(reason);
    throw fail(rtmp ? CDN_CODE.START_PUBLISH_CDN_FAILED : CDN_CODE.START_MIX_TRANSCODE_FAILED, `${rtmp ? 'publishing to the CDN' : 'mix transcode'} failed: ${reason}`);
  }
}

async function update(ctx: ServerContext, caller: JobCaller, raw: Record<string, unknown>): Promise<CdnStartReply> {
  const data = parseStart(raw);
  const { participant, room } = caller();
  const job = jobOf(ctx, room, participant, data.publishMode);
  if (!job) return start(ctx, caller, raw);
  const url = job.info().outputs[0];
  if (data.url && data.url.replace(/\?.*$/, '') !== url) return start(ctx, caller, raw); // a new target needs a new connection
  try {
    await job.setInputs(inputsOf(data, participant.userId));
  } catch (error) {
    if (error instanceof MixRuleError) throw fail(SERVER_CODE.INVALID_PARAMETER, error.message);
    throw fail(CDN_CODE.START_MIX_TRANSCODE_FAILED, `mix update failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { jobId: job.id, url };
}

async function stop(ctx: ServerContext, caller: JobCaller, raw: Record<string, unknown>): Promise<Record<string, never>> {
  const mode = raw.publishMode;
  if (typeof mode !== 'string' || !(mode in KIND)) throw fail(SERVER_CODE.INVALID_PARAMETER, `publishMode must be one of ${Object.keys(KIND).join(', ')}`);
  const { publishMode } = raw as unknown as CdnStopData;
  const { participant, room } = caller();
  const job = jobOf(ctx, room, participant, publishMode);
  const code = publishMode === 'PublishMixStreamToCDN' ? CDN_CODE.STOP_MIX_TRANSCODE_FAILED : CDN_CODE.STOP_PUBLISH_CDN_FAILED;
  if (!job) throw fail(code, `${publishMode} has not been started`);
  await ctx.jobs.stop(job.id);
  return {};
}

/** The CDN commands' handlers, looked up by the signalling session. */
export const JOB_COMMANDS: Readonly<Record<CdnCommand, JobHandler>> = Object.freeze({ 'cdn-start': start, 'cdn-update': update, 'cdn-stop': stop });
/** Names the session's envelope check accepts besides CommandMap's. */
export const JOB_COMMAND_NAMES: readonly string[] = CDN_COMMANDS;

/** The handler of a CDN command, or undefined for any other command. */
export function jobCommandHandler(cmd: string): JobHandler | undefined {
  return Object.hasOwn(JOB_COMMANDS, cmd) ? JOB_COMMANDS[cmd as CdnCommand] : undefined;
}
