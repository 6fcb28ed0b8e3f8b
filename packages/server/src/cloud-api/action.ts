import type { AppConfig } from '../config/config.js';
import type { Params } from './params.js';

/** What an action's handler gets: the app the SecretId belongs to, the parameters, and the audit trail. */
export interface ActionInput {
  app: AppConfig;
  params: Params;
  /** Files what the action did with the room's logs (store), counts it and logs it. */
  audit(roomRef: string | null, userId: string, text: string): void;
}

/** The answer's fields besides RequestId (the API's response model), or a CloudApiError thrown. */
export type ActionResult = Record<string, unknown>;

export type ActionHandler = (input: ActionInput) => ActionResult | Promise<ActionResult>;
