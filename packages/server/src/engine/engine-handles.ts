import type { DownlinkMids, EngineHandle, HandleCloseReason, RelayExportHandle, RelayImportHandle, SubscriptionHandle, UplinkHandle } from './media-engine.js';

/** Releases what a handle holds in its engine; called at most once. A rejection is reported, never thrown. */
export type HandleRelease = () => Promise<void> | void;

/** Where a handle reports what went wrong in its close (a failed release, a throwing listener). */
export type HandleReport = (detail: string) => void;

type CloseListener = (reason: HandleCloseReason) => void;

/**
 * The engines' one implementation of EngineHandle (media-engine.ts). It closes in one of two ways: `release`
 * (its owner closed it, or an operation ended it: what it holds in the engine is released) or `end` (what holds
 * it went, taking its resources along, as a downlink closing takes its subscriptions). Either way its listeners
 * are told once, synchronously, so that a cascade is complete when the call that set it off returns.
 */
class OwnedHandle implements EngineHandle {
  #reason: HandleCloseReason | undefined;
  #release: HandleRelease | undefined;
  #released: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<CloseListener>();
  readonly #report: HandleReport;

  constructor(release: HandleRelease, report: HandleReport) {
    this.#release = release;
    this.#report = report;
  }

  get closed(): boolean {
    return this.#reason !== undefined;
  }

  get closeReason(): HandleCloseReason | undefined {
    return this.#reason;
  }

  close(): Promise<void> {
    return this.release('closed');
  }

  /** Closes with `reason` and releases what it holds; resolves once released (at once when closed already). */
  release(reason: HandleCloseReason): Promise<void> {
    const release = this.#release;
    if (!this.#end(reason) || !release) return this.#released;
    try {
      this.#released = Promise.resolve(release()).catch((error: unknown) => this.#report(`releasing a handle (${reason}): ${describe(error)}`));
    } catch (error) {
      this.#report(`releasing a handle (${reason}): ${describe(error)}`);
    }
    return this.#released;
  }

  /** Closes with `reason`, releasing nothing: what held it released it. False when it was closed already. */
  end(reason: HandleCloseReason): boolean {
    return this.#end(reason);
  }

  onClose(listener: CloseListener): () => void {
    if (this.#reason !== undefined) {
      this.#tell(listener, this.#reason);
      return () => undefined;
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #end(reason: HandleCloseReason): boolean {
    if (this.#reason !== undefined) return false;
    this.#reason = reason;
    this.#release = undefined;
    const listeners = [...this.#listeners];
    this.#listeners.clear();
    for (const listener of listeners) this.#tell(listener, reason);
    return true;
  }

  #tell(listener: CloseListener, reason: HandleCloseReason): void {
    try {
      listener(reason);
    } catch (error) {
      // A listener's failure must not stop the cascade that closes the next handle; it is reported.
      this.#report(`a handle's close listener failed: ${describe(error)}`);
    }
  }
}

/** An uplink's handle, as the engines make it. */
export class OwnedUplink extends OwnedHandle implements UplinkHandle {
  constructor(readonly participantId: string, readonly answerSdp: string, release: HandleRelease, report: HandleReport) {
    super(release, report);
  }
}

/** A subscription's handle, as the engines make it. */
export class OwnedSubscription extends OwnedHandle implements SubscriptionHandle {
  constructor(readonly subscriberId: string, readonly sourceId: string, readonly mids: DownlinkMids, release: HandleRelease, report: HandleReport) {
    super(release, report);
  }
}

/** A relay export's handle (MediaEngine.exportSource), as the engines make it. */
export class OwnedRelayExport extends OwnedHandle implements RelayExportHandle {
  constructor(readonly sourceId: string, readonly importerNodeId: string, readonly answer: string, release: HandleRelease, report: HandleReport) {
    super(release, report);
  }
}

/** A relay import's handle (MediaEngine.importSource), as the engines make it. */
export class OwnedRelayImport extends OwnedHandle implements RelayImportHandle {
  constructor(readonly roomId: string, readonly sourceId: string, release: HandleRelease, report: HandleReport) {
    super(release, report);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
