/** Options of startPlugin / updatePlugin('SmallStreamAutoSwitcher') (the original's shape). */
export interface SmallStreamAutoSwitcherOptions {
  /** RTT (ms) above which the network is poor. */
  rttPoorLimit?: number;
  /** Loss (percent) above which the network is poor. */
  lossPoorLimit?: number;
  /** How long (ms) the network must stay poor before a remote video switches to its small stream. */
  poorDuration?: number;
  /** RTT (ms) below which the network is good. */
  rttGoodLimit?: number;
  /** Loss (percent) below which the network is good. */
  lossGoodLimit?: number;
  /** How long (ms) the network must stay good before a remote video switches back to its big stream. */
  goodDuration?: number;
  /** After a switch, how long (ms) no other switch happens. */
  sleepTime?: number;
  /** At most this many automatic switches to the small stream (per remote video). */
  maxAutoSwitchToSmallCount?: number;
}
