import type { FillMode } from './video-player.js';

/** Where and how a remote video should render once its track is there. */
export interface VideoRequest {
  views: HTMLElement[];
  fillMode?: FillMode;
  mirror?: boolean;
  poster?: string;
  /** Render into a <canvas> instead of a <video> (option.canvasRender). */
  canvasRender?: boolean;
  /** Receive only while the first view is visible (IntersectionObserver). */
  receiveWhenViewVisible?: boolean;
  viewRoot?: HTMLElement;
}
