import { useSyncExternalStore } from 'react';

/**
 * The demo's words in English and Chinese: one typed table (every key in `EN` must be in `ZH`, the compiler
 * checks), a language picked from `?lang=`, the user's last choice, or `navigator.language`. `{name}` in a
 * message is filled in by `t(key, { name })`. No i18n library: two languages and ~150 strings do not need one.
 */
export type Lang = 'en' | 'zh';
export const LANGS: readonly (readonly [Lang, string])[] = [['en', 'English'], ['zh', '中文']];

const EN = {
  // Pre-join
  'brand.sub': 'real-time rooms',
  'join.title': 'Ready to join?',
  'join.lede': 'Check your camera and microphone, pick a name and a room.',
  'join.name': 'Your name',
  'join.randomName': 'Pick a random name',
  'join.room': 'Room',
  'join.roomName': 'Room name',
  'join.textRoom': 'Text room ID',
  'join.hintStrRoom': 'Letters, digits and symbols (sent as strRoomId).',
  'join.hintRoom': 'A number from 1 to 4294967294.',
  'join.roomType': 'Room type',
  'join.meeting': 'Meeting',
  'join.live': 'Live',
  'join.joinAs': 'Join as',
  'join.asAnchor': 'anchor (on stage)',
  'join.asAudience': 'audience (watches)',
  'join.connection': 'Connection details',
  'join.failed': 'Could not join the room.',
  'join.joining': 'Joining…',
  'join.join': 'Join now',
  'join.language': 'Language',
  'preview.label': 'Camera and microphone check',
  'preview.cameraUnavailable': 'Camera unavailable',
  'preview.cameraStarting': 'Starting camera…',
  'preview.cameraOff': 'Camera is off',
  'preview.joinMicOff': 'Join with microphone off',
  'preview.joinMicOn': 'Join with microphone on',
  'preview.joinCameraOff': 'Join with camera off',
  'preview.joinCameraOn': 'Join with camera on',
  'preview.micLevel': 'Microphone level',
  'device.camera': 'Camera',
  'device.microphone': 'Microphone',
  'device.speaker': 'Speaker',
  'device.default': 'Default',
  // Device check (the DeviceDetector plugin)
  'check.run': 'Check my devices',
  'check.running': 'Device check open…',
  'check.passed': 'works',
  'check.failed': 'not confirmed',
  'check.closed': 'The device check was closed before the end.',
  'check.error': 'The device check could not run: {reason}',
  'check.result': 'Device check',
  // Room header and notices
  'room.room': 'Room',
  'room.as': 'as',
  'room.onStage': 'on stage',
  'room.audience': 'audience',
  'room.handUp': 'hand raised',
  'room.watching': 'watching',
  'room.watchingTitle': 'Users in the room who publish nothing (the audience)',
  'room.connection': 'Connection: ',
  'room.sharing': 'You are sharing your screen',
  'room.stop': 'Stop',
  'room.reconnecting': 'Connection lost: reconnecting…',
  'room.disconnected': 'Disconnected from the room.',
  'room.dismiss': 'Dismiss',
  'room.chat': 'Chat',
  'room.participants': 'Participants',
  'room.settings': 'Settings',
  'room.close': 'Close',
  'notice.askedToMute': '{userId} asked you to mute: your microphone is now off. Turn it back on when you want to speak.',
  'notice.invited': '{userId} invites you on stage.',
  'notice.accept': 'Go on stage',
  'notice.decline': 'Not now',
  'notice.handRaised': '{userId} raised a hand.',
  // Control bar
  'bar.label': 'Meeting controls',
  'bar.microphone': 'Microphone',
  'bar.camera': 'Camera',
  'bar.turnOnMic': 'Turn on microphone',
  'bar.turnOffMic': 'Turn off microphone',
  'bar.turnOnCamera': 'Turn on camera',
  'bar.turnOffCamera': 'Turn off camera',
  'bar.micMenu': 'Microphone and speaker settings',
  'bar.cameraMenu': 'Camera settings',
  'bar.mute': 'Mute (keep publishing)',
  'bar.unmute': 'Unmute (keep publishing)',
  'bar.hideVideo': 'Hide video (keep publishing)',
  'bar.showVideo': 'Show video (keep publishing)',
  'bar.share': 'Share screen',
  'bar.startShare': 'Share your screen',
  'bar.stopShare': 'Stop sharing',
  'bar.cannot': 'The audience cannot publish: go on stage first',
  'bar.goOnStage': 'Go on stage',
  'bar.leaveStage': 'Leave stage',
  'bar.raiseHand': 'Raise hand',
  'bar.lowerHand': 'Lower hand',
  'bar.leave': 'Leave',
  'bar.leaving': 'Leaving…',
  'bar.leaveTitle': 'Leave the room',
  'bar.chatUnread': 'Chat, {count} unread',
  'bar.participantsCount': 'Participants, {count}',
  // Effects
  'effects.label': 'Effects',
  'effects.blur': 'Blur my background',
  'effects.beauty': 'Touch up my appearance',
  'effects.denoise': 'Suppress background noise',
  'effects.voice': 'Voice',
  'effects.starting': ' (starting…)',
  'voice.0': 'My own voice',
  'voice.1': 'Naughty kid',
  'voice.2': 'Little girl',
  'voice.3': 'Middle-aged man',
  'voice.4': 'Heavy metal',
  'voice.5': 'Cold',
  'voice.6': 'Foreign accent',
  'voice.7': 'Trapped beast',
  'voice.8': 'Otaku',
  'voice.9': 'Electric current',
  'voice.10': 'Heavy machinery',
  'voice.11': 'Ethereal',
  'voice.12': 'Minions',
  // Chat
  'chat.empty': 'No messages yet.',
  'chat.message': 'Message',
  'chat.placeholder': 'Message everyone',
  'chat.audience': 'The audience cannot send messages',
  'chat.send': 'Send',
  'chat.you': 'You',
  // Participants and host tools
  'people.you': 'You',
  'people.micOn': 'Microphone on',
  'people.micOff': 'Microphone off',
  'people.cameraOn': 'Camera on',
  'people.cameraOff': 'Camera off',
  'people.unmuteFor': 'Unmute {userId}',
  'people.muteFor': 'Mute {userId} for me',
  'people.pin': 'Pin {userId}',
  'people.unpin': 'Unpin {userId}',
  'people.kick': 'Remove {userId} from the room',
  'people.kickTitle': 'Remove from the room',
  'people.askMute': 'Ask {userId} to mute',
  'people.askMuteTitle': 'Ask to mute (their app turns the microphone off)',
  'people.invite': 'Invite {userId} on stage',
  'people.inviteShort': 'Invite on stage',
  'people.handRaised': 'Hand raised',
  'host.tools': 'Host tools',
  'host.dev': 'You hold the dev app’s admin key: you can remove people, ask them to mute, and record the room.',
  'host.key': 'Admin key set: you can remove people, ask them to mute, and record the room.',
  'host.adminKey': 'Admin key',
  'host.adminKeyPlaceholder': 'Admin key (host tools)',
  'host.use': 'Use',
  'host.kickFailed': 'Could not remove {userId}: {reason}',
  'host.recording': 'Recording',
  'record.off': 'Not recording',
  'record.starting': 'Starting to record…',
  'record.waiting': 'Recording as soon as someone publishes…',
  'record.on': 'Recording the room',
  'record.stopping': 'Stopping the recording…',
  'record.start': 'Record the room',
  'record.stop': 'Stop recording',
  'record.failed': 'Recording: {reason}',
  'cdn.title': 'CDN relay',
  'cdn.start': 'Relay my stream to the CDN',
  'cdn.stop': 'Stop the CDN relay',
  'cdn.starting': 'Connecting to the CDN…',
  'cdn.on': 'Relaying to {url}',
    'cdn.failed': 'CDN relay: {reason}',
  // Settings
  'settings.video': 'Video',
  'settings.profile': 'Camera profile',
  'settings.mirror': 'Mirror',
  'settings.mirrorView': 'Mirror my view',
  'settings.mirrorPublish': 'Mirror what others see',
  'settings.mirrorBoth': 'Mirror both',
  'settings.mirrorNone': 'No mirror',
  'settings.small': 'Also send a small stream (for viewers with small tiles; set while the camera is off)',
  'settings.stats': 'Stats for nerds (resolution, frame rate, bitrate on each tile)',
  'settings.publishing': 'Publishing',
  'settings.publishState': 'Publish state',
  'settings.invite': 'Invite',
  'settings.shortcuts': 'Keyboard shortcuts',
  'settings.language': 'Language',
  'settings.cdnUrl': 'CDN URL (rtmp:// or rtmps://)',
  'settings.cdnHint': 'The RTMP ingest your stream is relayed to (CDNStreaming plugin); empty: no relay.',
  'shortcut.mic': 'Microphone on/off',
  'shortcut.camera': 'Camera on/off',
  'shortcut.screen': 'Share the screen',
  'shortcut.chat': 'Chat',
  'shortcut.people': 'Participants',
  'shortcut.settings': 'Settings',
  'shortcut.close': 'Close the panel',
  'invite.label': 'Invite link',
  'invite.copy': 'Copy invite link',
  'invite.copied': 'Copied',
  'invite.copiedNote': 'Link copied: anyone who opens it joins this room.',
  'invite.manual': 'Press Ctrl+C (⌘C) to copy the selected link.',
  'stage.videos': 'Videos',
  'stage.pages': 'Pages of videos',
  'stage.prev': 'Previous page',
  'stage.next': 'Next page',
  'stage.more': '+{count} more',
} as const;

export type MessageKey = keyof typeof EN;

const ZH: Record<MessageKey, string> = {
  'brand.sub': '实时音视频房间',
  'join.title': '准备好加入了吗？',
  'join.lede': '检查摄像头和麦克风，填写名字和房间。',
  'join.name': '你的名字',
  'join.randomName': '随机取一个名字',
  'join.room': '房间',
  'join.roomName': '房间名',
  'join.textRoom': '字符串房间号',
  'join.hintStrRoom': '字母、数字和符号（作为 strRoomId 发送）。',
  'join.hintRoom': '1 到 4294967294 之间的数字。',
  'join.roomType': '房间类型',
  'join.meeting': '会议',
  'join.live': '直播',
  'join.joinAs': '加入身份',
  'join.asAnchor': '主播（上台）',
  'join.asAudience': '观众（观看）',
  'join.connection': '连接信息',
  'join.failed': '无法进入房间。',
  'join.joining': '正在加入…',
  'join.join': '立即加入',
  'join.language': '语言',
  'preview.label': '摄像头和麦克风检查',
  'preview.cameraUnavailable': '摄像头不可用',
  'preview.cameraStarting': '正在打开摄像头…',
  'preview.cameraOff': '摄像头已关闭',
  'preview.joinMicOff': '关闭麦克风加入',
  'preview.joinMicOn': '打开麦克风加入',
  'preview.joinCameraOff': '关闭摄像头加入',
  'preview.joinCameraOn': '打开摄像头加入',
  'preview.micLevel': '麦克风音量',
  'device.camera': '摄像头',
  'device.microphone': '麦克风',
  'device.speaker': '扬声器',
  'device.default': '默认',
  'check.run': '检测我的设备',
  'check.running': '设备检测进行中…',
  'check.passed': '正常',
  'check.failed': '未确认',
  'check.closed': '设备检测在结束前被关闭。',
  'check.error': '无法进行设备检测：{reason}',
  'check.result': '设备检测',
  'room.room': '房间',
  'room.as': '身份',
  'room.onStage': '在台上',
  'room.audience': '观众',
  'room.handUp': '已举手',
  'room.watching': '人观看',
  'room.watchingTitle': '房间里不推流的用户（观众）',
  'room.connection': '连接：',
  'room.sharing': '你正在共享屏幕',
  'room.stop': '停止',
  'room.reconnecting': '连接已断开：正在重连…',
  'room.disconnected': '已与房间断开。',
  'room.dismiss': '关闭',
  'room.chat': '聊天',
  'room.participants': '成员',
  'room.settings': '设置',
  'room.close': '关闭',
  'notice.askedToMute': '{userId} 请你静音：你的麦克风已关闭。需要发言时再打开。',
  'notice.invited': '{userId} 邀请你上台。',
  'notice.accept': '上台',
  'notice.decline': '暂不',
  'notice.handRaised': '{userId} 举手了。',
  'bar.label': '会议控制',
  'bar.microphone': '麦克风',
  'bar.camera': '摄像头',
  'bar.turnOnMic': '打开麦克风',
  'bar.turnOffMic': '关闭麦克风',
  'bar.turnOnCamera': '打开摄像头',
  'bar.turnOffCamera': '关闭摄像头',
  'bar.micMenu': '麦克风和扬声器设置',
  'bar.cameraMenu': '摄像头设置',
  'bar.mute': '静音（继续推流）',
  'bar.unmute': '取消静音（继续推流）',
  'bar.hideVideo': '隐藏画面（继续推流）',
  'bar.showVideo': '显示画面（继续推流）',
  'bar.share': '共享屏幕',
  'bar.startShare': '共享你的屏幕',
  'bar.stopShare': '停止共享',
  'bar.cannot': '观众不能推流：请先上台',
  'bar.goOnStage': '上台',
  'bar.leaveStage': '下台',
  'bar.raiseHand': '举手',
  'bar.lowerHand': '放下手',
  'bar.leave': '离开',
  'bar.leaving': '正在离开…',
  'bar.leaveTitle': '离开房间',
  'bar.chatUnread': '聊天，{count} 条未读',
  'bar.participantsCount': '成员，{count} 人',
  'effects.label': '特效',
  'effects.blur': '背景虚化',
  'effects.beauty': '美颜',
  'effects.denoise': '降噪',
  'effects.voice': '变声',
  'effects.starting': '（启动中…）',
  'voice.0': '原声',
  'voice.1': '熊孩子',
  'voice.2': '萝莉',
  'voice.3': '大叔',
  'voice.4': '重金属',
  'voice.5': '感冒',
  'voice.6': '外国人',
  'voice.7': '困兽',
  'voice.8': '死肥仔',
  'voice.9': '强电流',
  'voice.10': '重机械',
  'voice.11': '空灵',
  'voice.12': '小黄人',
  'chat.empty': '还没有消息。',
  'chat.message': '消息',
  'chat.placeholder': '发给所有人',
  'chat.audience': '观众不能发送消息',
  'chat.send': '发送',
  'chat.you': '你',
  'people.you': '你',
  'people.micOn': '麦克风已开',
  'people.micOff': '麦克风已关',
  'people.cameraOn': '摄像头已开',
  'people.cameraOff': '摄像头已关',
  'people.unmuteFor': '取消静音 {userId}',
  'people.muteFor': '仅为我静音 {userId}',
  'people.pin': '固定 {userId}',
  'people.unpin': '取消固定 {userId}',
  'people.kick': '将 {userId} 移出房间',
  'people.kickTitle': '移出房间',
  'people.askMute': '请 {userId} 静音',
  'people.askMuteTitle': '请其静音（对方的应用会关闭麦克风）',
  'people.invite': '邀请 {userId} 上台',
  'people.inviteShort': '邀请上台',
  'people.handRaised': '已举手',
  'host.tools': '主持人工具',
  'host.dev': '你持有开发应用的管理密钥：可以移出成员、请成员静音、录制房间。',
  'host.key': '已设置管理密钥：可以移出成员、请成员静音、录制房间。',
  'host.adminKey': '管理密钥',
  'host.adminKeyPlaceholder': '管理密钥（主持人工具）',
  'host.use': '使用',
  'host.kickFailed': '无法移出 {userId}：{reason}',
  'host.recording': '录制',
  'record.off': '未在录制',
  'record.starting': '正在开始录制…',
  'record.waiting': '有人推流后即开始录制…',
  'record.on': '正在录制房间',
  'record.stopping': '正在停止录制…',
  'record.start': '录制房间',
  'record.stop': '停止录制',
  'record.failed': '录制：{reason}',
  'cdn.title': 'CDN 旁路推流',
  'cdn.start': '把我的流推到 CDN',
  'cdn.stop': '停止 CDN 推流',
  'cdn.starting': '正在连接 CDN…',
  'cdn.on': '正在推流到 {url}',
    'cdn.failed': 'CDN 推流：{reason}',
  'settings.video': '视频',
  'settings.profile': '摄像头规格',
  'settings.mirror': '镜像',
  'settings.mirrorView': '镜像我的预览',
  'settings.mirrorPublish': '镜像别人看到的画面',
  'settings.mirrorBoth': '都镜像',
  'settings.mirrorNone': '不镜像',
  'settings.small': '同时发送小流（给小窗口观看者；摄像头关闭时设置）',
  'settings.stats': '统计信息（每个画面上的分辨率、帧率、码率）',
  'settings.publishing': '推流',
  'settings.publishState': '推流状态',
  'settings.invite': '邀请',
  'settings.shortcuts': '键盘快捷键',
  'settings.language': '语言',
  'settings.cdnUrl': 'CDN 地址（rtmp:// 或 rtmps://）',
  'settings.cdnHint': '你的流被旁路推送到的 RTMP 地址（CDNStreaming 插件）；留空则不推流。',
  'shortcut.mic': '打开/关闭麦克风',
  'shortcut.camera': '打开/关闭摄像头',
  'shortcut.screen': '共享屏幕',
  'shortcut.chat': '聊天',
  'shortcut.people': '成员',
  'shortcut.settings': '设置',
  'shortcut.close': '关闭面板',
  'invite.label': '邀请链接',
  'invite.copy': '复制邀请链接',
  'invite.copied': '已复制',
  'invite.copiedNote': '链接已复制：打开它的人都会进入这个房间。',
  'invite.manual': '按 Ctrl+C（⌘C）复制选中的链接。',
  'stage.videos': '视频',
  'stage.pages': '视频分页',
  'stage.prev': '上一页',
  'stage.next': '下一页',
  'stage.more': '还有 {count} 个',
};

const TABLES: Record<Lang, Record<MessageKey, string>> = { en: EN, zh: ZH };
const STORAGE_KEY = 'conclave-demo-lang';

const isLang = (value: unknown): value is Lang => value === 'en' || value === 'zh';

/** `?lang=` first, then the user's last choice, then the browser's language (zh-* → Chinese). */
export function initialLang(search: string, stored: string | null, browser: string): Lang {
  const asked = new URLSearchParams(search).get('lang');
  if (isLang(asked)) return asked;
  if (isLang(stored)) return stored;
  return browser.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

function storedLang(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let current: Lang = typeof window === 'undefined' ? 'en' : initialLang(window.location.search, storedLang(), navigator.language);
const listeners = new Set<() => void>();

function apply(lang: Lang): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
}
apply(current);

/** Switches the language everywhere (and remembers it). */
export function setLang(lang: Lang): void {
  if (lang === current) return;
  current = lang;
  apply(lang);
  try {
    window.localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Storage may be off (private mode): the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

export function getLang(): Lang {
  return current;
}

/** A message of `lang` with its `{name}` parts filled in. */
export function translate(lang: Lang, key: MessageKey, vars?: Readonly<Record<string, string | number>>): string {
  const text = TABLES[lang][key];
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

/** The current language; the component re-renders when it changes. */
export function useLang(): Lang {
  return useSyncExternalStore(subscribe, getLang);
}

/** `t(key, vars)` in the current language; the component re-renders when it changes. */
export function useT(): Translate {
  const lang = useLang();
  return (key, vars) => translate(lang, key, vars);
}
