/**
 * The face state the app hears about (as the original's): it starts at "no face"; a detection with a face
 * switches it to true at once; detections without one switch it back to false once the face has been
 * missing for `missingTimeout` ms (at once with 0). A face seen again in between cancels the countdown.
 */
export class FacePresence {
  /** The state last reported. */
  hasFace = false;
  private _missingSince: number | undefined;

  /**
   * One detection's outcome at `now` (ms); returns the new state when it changes (to report), else
   * undefined. Called without a detection (`hasFace` undefined) it only checks the countdown.
   */
  observe(hasFace: boolean | undefined, now: number, missingTimeout: number): boolean | undefined {
    if (hasFace === true) {
      this._missingSince = undefined;
      if (this.hasFace) return undefined;
      this.hasFace = true;
      return true;
    }
    if (!this.hasFace) return undefined;
    if (hasFace === false) this._missingSince ??= now;
    if (this._missingSince === undefined || now - this._missingSince < missingTimeout) return undefined;
    return this.lost();
  }

  /** The face is gone for sure (the camera stopped): false at once when a face was reported. */
  lost(): boolean | undefined {
    this._missingSince = undefined;
    if (!this.hasFace) return undefined;
    this.hasFace = false;
    return false;
  }

  /** Back to "no face", nothing reported (stop). */
  reset(): void {
    this.hasFace = false;
    this._missingSince = undefined;
  }
}
