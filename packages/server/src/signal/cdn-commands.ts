import { CDN_CODE, SERVER_CODE, type CdnPublishMode, type CdnStartData, type CdnStartReply, type CommandMap } from '@conclave/protocol';
import { hasPrivilege, PRIVILEGE } from '@conclave/usersig';
import type { SignalDeps } from './signal-deps.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import { CommandError } from './command-error.js';
import { inputsOf, MixRuleError, pipelineOf, targetUrl } from '../jobs/cdn-spec.js';
import { JobLimitError } from '../jobs/job-manager.js';
import { CDN_FAILED, checkRtmpTarget } from '../jobs/rtmp-target.js';
import type { JobKind, MediaJob } from '../jobs/media-job.js';
import type { JobOutput } from '../jobs/job-process.js';
import { parseRoomRef } from '../ids/room-ref.js';
import type { MixStream } from '../whep/mix-streams.js';

/** The session a CDN command comes from (throws when it has not joined). */
export type JobCaller = () => { participant: Participant; room: Room };

type CdnCommand = 'cdn-start' | 'cdn-update' | 'cdn-stop';
/** What the CDN commands work with. */
type CdnContext = Pick<SignalDeps, 'config' | 'jobs' | 'mixImages' | 'mixStreams' | 'logger'>;
type CdnHandlers = { [C in CdnCommand]: (data: CommandMap[C]['data']) => Promise<CommandMap[C]['reply']> };

const KIND: Record<CdnPublishMode, JobKind> = {
  PublishMainStreamToCDN: 'cdn-main', PublishSubStreamToCDN: 'cdn-sub', PublishMixStreamToCDN: 'cdn-mix',
};

/** A coded refusal of a CDN command. */
const fail = (code: number, message: string) => new CommandError(code, message);

function jobOf(ctx: CdnContext, room: Room, participant: Participant, mode: CdnPublishMode): MediaJob | undefined {
  return ctx.jobs.find((job) => job.options.roomKey === room.key && job.options.ownerId === participant.id && job.options.kind === KIND[mode])[0];
}

function inputsFor(data: CdnStartData, userId: string) {
  try {
    return inputsOf(data, userId);
  } catch (error) {
    if (error instanceof MixRuleError) throw fail(SERVER_CODE.INVALID_PARAMETER, error.message);
    throw error;
  }
}

/**
 * The file of mix.backgroundImage, looked up in the caller's app's folder only (an image of another app is
 * as unknown as a missing one); undefined when none is asked for.
 */
function backgroundImageOf(ctx: CdnContext, room: Room, data: CdnStartData): string | undefined {
  const name = data.publishMode === 'PublishMixStreamToCDN' ? data.mix?.backgroundImage : undefined;
  if (!name) return undefined;
  const path = ctx.mixImages.path(room.sdkAppId, name);
  if (!path) throw fail(CDN_CODE.START_MIX_TRANSCODE_FAILED, `mix.backgroundImage '${name}' is not an image of this app (upload it with PUT /admin/v1/apps/${room.sdkAppId}/mix-images/${name})`);
  return path;
}

/**
 * Where the job publishes: the caller's `url` once its app's rtmpHosts allow it, or the shared ingest plus a
 * namespaced stream id (jobs/rtmp-target.ts). A refused URL is answered as a failed connection would be:
 * CDN_FAILED, the reason in the server's log only (docs/behaviour.md §5.5).
 */
async function targetOf(ctx: CdnContext, room: Room, participant: Participant, data: CdnStartData): Promise<string | undefined> {
  if (data.url) {
    const hosts = ctx.config.apps.find((app) => app.sdkAppId === room.sdkAppId)?.rtmpHosts ?? [];
    try {
      await checkRtmpTarget(data.url, hosts);
    } catch (error) {
      ctx.logger.warn({ app: room.sdkAppId, room: room.ref, user: participant.userId, reason: (error as Error).message }, 'CDN target refused');
      throw fail(CDN_CODE.START_PUBLISH_CDN_FAILED, CDN_FAILED);
    }
  }
  return targetUrl(data, ctx.config.media.rtmpIngest, { sdkAppId: room.sdkAppId, roomRef: room.ref, userId: participant.userId });
}

/** A relay sends the caller's own stream on: it needs the privilege to send that stream's video (privateMapKey). */
function mayRelay(participant: Participant, mode: CdnPublishMode): void {
  const needs = mode === 'PublishSubStreamToCDN' ? PRIVILEGE.SEND_SUB_VIDEO : PRIVILEGE.SEND_VIDEO;
  if (mode !== 'PublishMixStreamToCDN' && !hasPrivilege(participant.privileges, needs)) {
    throw fail(SERVER_CODE.PRIVILEGE_DENIED, `no privilege to send the ${mode === 'PublishSubStreamToCDN' ? 'sub stream' : 'main stream'} (the privateMapKey lacks ${mode === 'PublishSubStreamToCDN' ? 'SEND_SUB_VIDEO' : 'SEND_VIDEO'}), so there is nothing to relay`);
  }
}

async function start(ctx: CdnContext, caller: JobCaller, data: CdnStartData): Promise<CdnStartReply> {
  const { participant, room } = caller();
  const isMix = data.publishMode === 'PublishMixStreamToCDN';
  const inputs = inputsFor(data, participant.userId);
  mayRelay(participant, data.publishMode);
  // docs/behaviour.md §12: the server cannot decode end-to-end encrypted media, so it mixes and relays none.
  const encrypted = inputs.filter((input) => room.source(input.userId)?.encrypted === true).map((input) => input.userId);
  if (encrypted.length > 0) {
    const code = isMix ? CDN_CODE.START_MIX_TRANSCODE_FAILED : CDN_CODE.START_PUBLISH_CDN_FAILED;
    throw fail(code, `${encrypted.join(', ')} publish${encrypted.length === 1 ? 'es' : ''} end-to-end encrypted media (CustomEncryption), which the server cannot decode to mix or relay`);
  }
  const backgroundImage = backgroundImageOf(ctx, room, data);
  const url = await targetOf(ctx, room, participant, data);
  // A mix with a streamId is also played over WHEP (docs/behaviour.md §7.5); it needs no RTMP target then.
  const whepId = isMix ? data.streamId : undefined;
  if (!url && !whepId) throw fail(SERVER_CODE.INVALID_PARAMETER, 'target.url is required (this server has no default RTMP ingest for a streamId)');
  // A second start of the same mode replaces the first.
  const previous = jobOf(ctx, room, participant, data.publishMode);
  if (previous) await ctx.jobs.stop(previous.id);
  let stream: MixStream | undefined;
  try {
    stream = whepId ? await ctx.mixStreams.open(room.sdkAppId, whepId, parseRoomRef(room.ref) ?? { roomId: room.ref, isString: true }) : undefined;
  } catch (error) {
    // The app's own namespace (another of its mixes has the streamId): nothing of the network in it.
    throw fail(CDN_CODE.START_MIX_TRANSCODE_FAILED, `mix transcode failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const outputs: JobOutput[] = [...(url ? [{ type: 'rtmp' as const, url }] : []), ...(stream ? [{ type: 'rtp' as const, videoPort: stream.videoPort, audioPort: stream.audioPort }] : [])];
    const job = await ctx.jobs.start({
      kind: KIND[data.publishMode], sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref,
      ownerId: participant.id, ownerUserId: participant.userId, ...(whepId ? { streamId: whepId } : {}),
      // docs/behaviour.md §6: the job takes from the others what the caller may receive (its privileges now).
      receiverPrivileges: () => participant.privileges,
      spec: pipelineOf(data, backgroundImage), outputs: () => outputs, inputs,
    });
    stream?.bindJob(job);
    return { jobId: job.id, url: url ? url.replace(/\?.*$/, '') : `/whep/v1/${room.sdkAppId}/streams/${encodeURIComponent(whepId ?? '')}` };
  } catch (error) {
    stream?.close();
    if (error instanceof JobLimitError) throw fail(SERVER_CODE.TOO_MANY_JOBS, error.message);
    const reason = error instanceof Error ? error.message : String(error);
    ctx.logger.warn({ app: room.sdkAppId, room: room.ref, user: participant.userId, mode: data.publishMode, reason }, 'CDN job failed to start');
    // One answer whatever the cause (a refused, reset, silent or foreign port alike): no port-state oracle.
    throw url ? fail(CDN_CODE.START_PUBLISH_CDN_FAILED, CDN_FAILED) : fail(CDN_CODE.START_MIX_TRANSCODE_FAILED, 'mix transcode failed');
  }
}

async function update(ctx: CdnContext, caller: JobCaller, data: CdnStartData): Promise<CdnStartReply> {
  const { participant, room } = caller();
  const job = jobOf(ctx, room, participant, data.publishMode);
  if (!job) return start(ctx, caller, data);
  // A mix played over WHEP only has no RTMP output: its reply names the WHEP path, as its start did.
  const url = job.info().outputs.find((o) => !o.startsWith('rtp://')) ?? `/whep/v1/${room.sdkAppId}/streams/${encodeURIComponent(job.options.streamId ?? '')}`;
  if (data.url && data.url.replace(/\?.*$/, '') !== url) return start(ctx, caller, data); // a new target needs a new connection
  const inputs = inputsFor(data, participant.userId);
  const backgroundImage = backgroundImageOf(ctx, room, data);
  try {
    await job.setInputs(inputs);
    // Like the layout, the background is what this update says: no image when it names none.
    if (job.options.kind === 'cdn-mix') job.setBackground(data.mix?.backgroundColor ?? 0, backgroundImage);
  } catch (error) {
    ctx.logger.warn({ app: room.sdkAppId, room: room.ref, job: job.id, reason: error instanceof Error ? error.message : String(error) }, 'CDN job update failed');
    throw fail(CDN_CODE.START_MIX_TRANSCODE_FAILED, 'mix update failed');
  }
  return { jobId: job.id, url };
}

/**
 * The CDN commands (schemas in @conclave/protocol commands/cdn.ts, validated by the session like every
 * command) for one signalling session: each runs a media job owned by the caller. `context` is read at
 * call time (the session builds its handler table before its constructor runs).
 */
export function cdnCommandHandlers(context: () => CdnContext, caller: JobCaller): CdnHandlers {
  return {
    'cdn-start': (data) => start(context(), caller, data),
    'cdn-update': (data) => update(context(), caller, data),
    'cdn-stop': async ({ publishMode }) => {
      const ctx = context();
      const { participant, room } = caller();
      const job = jobOf(ctx, room, participant, publishMode);
      const code = publishMode === 'PublishMixStreamToCDN' ? CDN_CODE.STOP_MIX_TRANSCODE_FAILED : CDN_CODE.STOP_PUBLISH_CDN_FAILED;
      if (!job) throw fail(code, `${publishMode} has not been started`);
      await ctx.jobs.stop(job.id);
      return {};
    },
  };
}
