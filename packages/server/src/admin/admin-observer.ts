import type { Observer } from '../lifecycle/observer.js';

/** What the admin API did, as its observer tells it (the metrics count the actions by kind). */
export type AdminEvent = { type: 'action'; action: string };

/** The admin API's observer: the root makes it, the API tells it, the metrics subscribe. */
export type AdminObserver = Observer<AdminEvent>;
