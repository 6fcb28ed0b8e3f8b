import type { Observer } from '../lifecycle/observer.js';

/** What the cloud API did, as its observer tells it: an action answered (the metrics count it as `cloudapi.<Action>`). */
export type CloudApiEvent = { type: 'action'; action: string };

/** The cloud API's observer: the root makes it, the API tells it, the metrics subscribe. */
export type CloudApiObserver = Observer<CloudApiEvent>;
