/** The autoplay dialog's wording (docs/behaviour.md §2), English and Chinese. */
export interface AutoplayText {
  message: string;
  resume: string;
  detail: string;
  help: string;
  policy: string;
  other: string;
  tutorial: string;
}

/** The tutorial page on the browser autoplay policy that the dialog links to. */
export const AUTOPLAY_TUTORIAL_URL = 'https://developer.chrome.com/blog/autoplay/';

const EN: AutoplayText = {
  message: 'Media playback failed. Click the "Resume" to resume playback.',
  resume: 'Resume',
  detail: 'Detail',
  help: 'Open the tutorial on the browser autoplay policy',
  policy: 'Autoplay Policy: Before user interacts with the web page (clicking, touching), page will not be allowed to play media with sound. This Dialog is used to help users resume playback.',
  other: 'Any other solution?',
  tutorial: AUTOPLAY_TUTORIAL_URL,
};

const ZH: AutoplayText = {
  message: '音视频播放被浏览器拦截，请点击“恢复播放”。',
  resume: '恢复播放',
  detail: '详情',
  help: '打开浏览器自动播放策略说明',
  policy: '浏览器自动播放策略：在用户与页面产生交互（点击、触摸）之前，浏览器禁止播放有声媒体。该弹窗用于帮助用户恢复音视频播放。',
  other: '其他方案？',
  tutorial: AUTOPLAY_TUTORIAL_URL,
};

/** True when a language tag (e.g. 'zh', 'zh-CN', 'zh-Hant-TW') is Chinese. */
export function isChinese(lang: string | null | undefined): boolean {
  return typeof lang === 'string' && /^zh(?:-|_|$)/i.test(lang.trim());
}

/**
 * The dialog's wording for the interface language: the page's `<html lang>` when set, else the
 * browser's language.
 */
export function autoplayText(pageLang: string | null | undefined, browserLang: string | null | undefined): AutoplayText {
  const lang = pageLang && pageLang.trim() !== '' ? pageLang : browserLang;
  return isChinese(lang) ? ZH : EN;
}
