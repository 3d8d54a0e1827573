import {
  batteryOkay,
  NO_SUCH_FARM,
  POWER_MAINS,
  SIGNAL_QUALITY_OKAY_ABOVE,
  SIGNAL_STRENGTH_OKAY_ABOVE,
  type CheckDiagnosticsAnswer,
  type CheckOnlineAnswer,
  type CheckSensorBoardsAnswer,
} from '@shared/api/actions/installer';

/** One of Check Install's status lines (operator §8); `bad` lines are shown red. */
export interface StatusLine {
  readonly text: string;
  readonly bad: boolean;
}

/** §8 'Check install, server answers No such farm'. */
const FARM_NOT_FOUND = 'Farm not found, try again.';
const CONNECTION_UP = 'Connection is up';
const CONNECTION_DOWN = 'Connection is down';

/** CHECK_ONLINE's line, and whether the sequence goes on (§4: only when online). */
export const onlineStatus = (answer: CheckOnlineAnswer): { line: StatusLine; online: boolean } => {
  if (answer === NO_SUCH_FARM) return { line: { text: FARM_NOT_FOUND, bad: true }, online: false };
  return answer.online ? { line: { text: CONNECTION_UP, bad: false }, online: true } : { line: { text: CONNECTION_DOWN, bad: true }, online: false };
};

/** A percentage against its §9 threshold: 'okay (67%)' above it, 'poor (12%)' otherwise or unknown. */
const percentLine = (label: string, value: number | null, okayAbove: number): StatusLine =>
  value === null ? { text: `${label}: poor (unknown)`, bad: true } : value > okayAbove ? { text: `${label}: okay (${value}%)`, bad: false } : { text: `${label}: poor (${value}%)`, bad: true };

/** CHECK_DIAGNOSTICS's lines (§9 check thresholds): network strength and signal quality 'okay' or 'poor', mains power and battery 'okay' or 'bad' (§8). */
export const diagnosticsStatus = (answer: CheckDiagnosticsAnswer): StatusLine[] => {
  if (answer === NO_SUCH_FARM) return [{ text: FARM_NOT_FOUND, bad: true }];
  const { network, power } = answer.data.device;
  const mains = power.source === POWER_MAINS;
  const battery = batteryOkay(power.battery.state);
  return [
    percentLine('Network strength', network.signal.strength, SIGNAL_STRENGTH_OKAY_ABOVE),
    percentLine('Signal quality', network.signal.quality, SIGNAL_QUALITY_OKAY_ABOVE),
    { text: `Mains power: ${mains ? 'okay' : 'bad'} (${power.source ?? 'unknown'})`, bad: !mains },
    { text: `Battery: ${battery ? 'okay' : 'bad'} (${power.battery.state})`, bad: !battery },
  ];
};

/** CHECK_SENSORBOARDS's line: red when the result begins with 'fault' (§8). */
export const sensorBoardsStatus = (answer: CheckSensorBoardsAnswer): StatusLine =>
  answer === NO_SUCH_FARM ? { text: FARM_NOT_FOUND, bad: true } : { text: `Sensor boards: ${answer.result}`, bad: answer.result.startsWith('fault') };
