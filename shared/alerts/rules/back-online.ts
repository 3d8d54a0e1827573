import { ALERT } from '../types';
import type { ReadingRule } from './step';

/** Back online (501): the device was OFFLINE (502 open) and speaks again. */
export const backOnline: ReadingRule = (s, r) => {
  if (!s.isOpen(ALERT.offline)) return;
  s.close(ALERT.offline);
  s.once(ALERT.online, r.data);
};
