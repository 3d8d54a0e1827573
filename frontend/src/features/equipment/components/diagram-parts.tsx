import { preCoolingLabel, vatValueLabel, type PreCoolingValue } from '@shared/entities/equipment';
import { LAYOUT, type PlacedVat } from '../utils/diagram-layout';
import { subTypeLabel, type LiveLabels } from '../utils/plant';

/*
 * The parts of the equipment diagram (farmer §2.13), each a React component emitting SVG at the
 * place the layout gives it. Colours and strokes are in equipment.css (classes, no inline styles).
 */

const PLATE = { width: 40, height: 40 };
const ICE_BANK = { width: 84, height: 34, top: 66 };

/** A plate heat exchanger on the milk line: the plates as vertical lines. */
function Plate({ cx }: { readonly cx: number }) {
  const x = cx - PLATE.width / 2;
  const y = LAYOUT.pipeY - PLATE.height / 2;
  return (
    <g className="equipment-diagram__plate">
      <rect x={x} y={y} width={PLATE.width} height={PLATE.height} rx={3} />
      {[1, 2, 3, 4, 5, 6].map((i) => (
        <line key={i} x1={x + (i * PLATE.width) / 7} y1={y + 4} x2={x + (i * PLATE.width) / 7} y2={y + PLATE.height - 4} />
      ))}
    </g>
  );
}

/**
 * The pre-cooling system on the milk line: None (the pipe runs straight through), Chilling (a
 * plate chiller on the line) or Ice Bank (the plate fed with ice water from an ice-bank tank).
 */
export function PreCooling({ value, x }: { readonly value: PreCoolingValue; readonly x: number }) {
  const label = preCoolingLabel(value) ?? 'None';
  const cx = x + 40;
  return (
    <g role="group" aria-label={`Pre-cooling: ${label}`} className={`equipment-diagram__pre-cooling equipment-diagram__pre-cooling--${value}`}>
      <text className="equipment-diagram__small" x={cx} y={14} textAnchor="middle">
        Pre-cooling
      </text>
      {value === 0 && (
        <text className="equipment-diagram__caption" x={cx} y={LAYOUT.pipeY + 26} textAnchor="middle">
          {label}
        </text>
      )}
      {value === 1 && (
        <g role="img" aria-label="Plate chiller">
          <Plate cx={cx} />
        </g>
      )}
      {value === 1 && (
        <text className="equipment-diagram__caption" x={cx} y={LAYOUT.pipeY + PLATE.height / 2 + 16} textAnchor="middle">
          {label}
        </text>
      )}
      {value === 2 && (
        <g role="img" aria-label="Ice bank feeding a plate chiller">
          <Plate cx={cx} />
          <line className="equipment-diagram__water" x1={cx - 10} y1={LAYOUT.pipeY + PLATE.height / 2} x2={cx - 10} y2={ICE_BANK.top} />
          <line className="equipment-diagram__water" x1={cx + 10} y1={LAYOUT.pipeY + PLATE.height / 2} x2={cx + 10} y2={ICE_BANK.top} />
          <rect className="equipment-diagram__ice-bank" x={cx - ICE_BANK.width / 2} y={ICE_BANK.top} width={ICE_BANK.width} height={ICE_BANK.height} rx={4} />
          {[0, 1, 2].map((i) => (
            <rect key={i} className="equipment-diagram__ice" x={cx - 30 + i * 22} y={ICE_BANK.top + 5} width={16} height={9} rx={2} />
          ))}
        </g>
      )}
      {value === 2 && (
        <text className="equipment-diagram__caption" x={cx} y={ICE_BANK.top + ICE_BANK.height - 7} textAnchor="middle">
          {label}
        </text>
      )}
    </g>
  );
}

/** One fridge unit (condensing unit) under its vat, with its refrigerant line up to the vat's base. */
function FridgeUnit({ n, vatId, x, y, tankBottom }: { readonly n: number; readonly vatId: number; readonly x: number; readonly y: number; readonly tankBottom: number }) {
  const { width, height } = LAYOUT.fridge;
  const cx = x + width / 2;
  return (
    <g role="img" aria-label={`Fridge unit ${n} of Vat ${vatId}`} className="equipment-diagram__fridge">
      <line className="equipment-diagram__refrigerant" x1={cx} y1={tankBottom} x2={cx} y2={y} />
      <rect x={x} y={y} width={width} height={height} rx={3} />
      <circle className="equipment-diagram__fan" cx={cx} cy={y + height / 2} r={9} />
      <line className="equipment-diagram__fan-blade" x1={cx - 6} y1={y + height / 2 - 6} x2={cx + 6} y2={y + height / 2 + 6} />
      <line className="equipment-diagram__fan-blade" x1={cx - 6} y1={y + height / 2 + 6} x2={cx + 6} y2={y + height / 2 - 6} />
    </g>
  );
}

/**
 * A vat: the tank (its base pad cooled; a Vat with sidewall also along its walls), the milk in it
 * to its volume, its live label inside (farmer §2.13: temperature, agitator, volume of vat size),
 * its fridge units under it and a caption in the spec's words ('Vat with sidewall', 'Fridge2').
 */
export function VatTank({ placed, labels }: { readonly placed: PlacedVat; readonly labels: LiveLabels }) {
  const { vat, x, y, cx, fridgeXs, fridgeY, captionY } = placed;
  const { width, height } = LAYOUT.tank;
  const sidewall = vat.value === 2;
  const milkHeight = Math.round((height - 10) * labels.fill);
  const kind = vatValueLabel(vat.value) ?? 'Vat';
  return (
    <g role="group" aria-label={`Vat ${vat.id}`} className="equipment-diagram__vat">
      <line className="equipment-diagram__pipe equipment-diagram__pipe--drop" x1={cx} y1={y - LAYOUT.drop} x2={cx} y2={y} />
      <g role="img" aria-label={kind}>
        <rect className="equipment-diagram__tank" x={x} y={y} width={width} height={height} rx={12} />
        {milkHeight > 0 && <rect className="equipment-diagram__milk" x={x + 2} y={y + height - 2 - milkHeight} width={width - 4} height={milkHeight} rx={10} />}
        <rect className="equipment-diagram__cooling" x={x + 8} y={y + height - 7} width={width - 16} height={4} rx={2} />
        {sidewall && (
          <>
            <rect className="equipment-diagram__cooling equipment-diagram__cooling--wall" x={x + 3} y={y + 22} width={5} height={height - 32} rx={2} />
            <rect className="equipment-diagram__cooling equipment-diagram__cooling--wall" x={x + width - 8} y={y + 22} width={5} height={height - 32} rx={2} />
          </>
        )}
      </g>
      <text className="equipment-diagram__vat-title" x={cx} y={y + 18} textAnchor="middle">
        Vat {vat.id}
      </text>
      <text className="equipment-diagram__temperature" x={cx} y={y + 46} textAnchor="middle" data-label="temperature">
        {labels.temperature}
      </text>
      <text className="equipment-diagram__value" x={cx} y={y + 68} textAnchor="middle" data-label="agitator">
        {labels.hasReading ? `Agitator: ${labels.agitator}` : 'No reading yet'}
      </text>
      <text className="equipment-diagram__value" x={cx} y={y + 88} textAnchor="middle" data-label="volume">
        {labels.volume}
      </text>
      {fridgeXs.map((fx, i) => (
        <FridgeUnit key={fx} n={i + 1} vatId={vat.id} x={fx} y={fridgeY} tankBottom={y + height} />
      ))}
      {/* Two lines, so neighbouring vats' captions never run into each other. */}
      <text className="equipment-diagram__caption" x={cx} y={captionY} textAnchor="middle" data-label="kind">
        {kind}
      </text>
      <text className="equipment-diagram__caption" x={cx} y={captionY + LAYOUT.captionLine} textAnchor="middle" data-label="fridges">
        {subTypeLabel(vat.value, vat.sub_value)}
      </text>
    </g>
  );
}
