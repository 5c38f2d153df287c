import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GrowthPoint } from './cagr';

interface GrowthChartProps {
  points: GrowthPoint[];
  /** How a value reads (the reader's locale), in tooltips and the table… */
  formatValue: (value: number) => string;
  /** …and, shorter, on the axis. */
  formatAxis: (value: number) => string;
  /** How a period reads on the axis: "3" or a date. */
  formatPeriod: (period: number) => string;
  /** What the horizontal axis counts: "Period" or "Year". */
  periodLabel: string;
  /** One sentence saying what the chart shows, for those who cannot see it. */
  summary: string;
}

/** The drawing's size in its own units: narrower on a phone, so its 12-unit text stays readable when scaled to the screen. */
const SIZES = { wide: { WIDTH: 640, HEIGHT: 260 }, narrow: { WIDTH: 340, HEIGHT: 220 } };
const PAD = { top: 16, right: 20, bottom: 34, left: 56 };
const GRID_LINES = 4;
/** Read by screen readers, not shown (as components/VisuallyHidden, for a block: a table). */
const HIDDEN = { position: 'absolute', width: '1px', height: '1px', m: '-1px', p: 0, border: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)' } as const;

/**
 * The growth path as a small line chart: a hand-made SVG, since no charting library is
 * installed and one line with four grid lines needs none. It scales to its box; each point
 * has a tooltip, and a visually hidden table gives the same values to screen readers.
 */
export function GrowthChart({ points, formatValue, formatAxis, formatPeriod, periodLabel, summary }: GrowthChartProps) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'));
  const { WIDTH, HEIGHT } = SIZES[narrow ? 'narrow' : 'wide'];
  if (points.length < 2) return null;
  const first = points[0]!;
  const last = points.at(-1)!;
  const values = points.map((point) => point.value);
  // From zero, so the slope reads as growth rather than as the gap between two values.
  const top = Math.max(...values) * 1.08;
  const x = (period: number) => PAD.left + ((period - first.period) / (last.period - first.period)) * (WIDTH - PAD.left - PAD.right);
  const y = (value: number) => HEIGHT - PAD.bottom - (value / top) * (HEIGHT - PAD.top - PAD.bottom);
  const line = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${x(point.period).toFixed(1)},${y(point.value).toFixed(1)}`).join(' ');
  const area = `${line} L${x(last.period).toFixed(1)},${y(0)} L${x(first.period).toFixed(1)},${y(0)} Z`;
  const gridValues = Array.from({ length: GRID_LINES + 1 }, (_, index) => (top / 1.08) * (index / GRID_LINES));
  // A dot per point while they stay apart; a long path is a line alone.
  const dots = points.length <= 40;
  const xTicks = [...new Set([first.period, points[Math.floor(points.length / 2)]!.period, last.period])];

  return (
    <Box sx={{ width: '100%' }}>
      <Box
        component="svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        data-testid="growth-chart"
        sx={{ width: '100%', height: 'auto', display: 'block', overflow: 'visible', fontFamily: theme.typography.fontFamily }}
      >
        {gridValues.map((value) => (
          <g key={value}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(value)} y2={y(value)} stroke={theme.palette.divider} strokeDasharray={value === 0 ? undefined : '3 4'} />
            <text x={PAD.left - 8} y={y(value)} dy="0.32em" textAnchor="end" fontSize={12} fill={theme.palette.text.secondary}>
              {formatAxis(value)}
            </text>
          </g>
        ))}
        {xTicks.map((period) => (
          <text
            key={period}
            x={x(period)}
            y={HEIGHT - PAD.bottom + 20}
            textAnchor={period === first.period ? 'start' : period === last.period ? 'end' : 'middle'}
            fontSize={12}
            fill={theme.palette.text.secondary}
          >
            {formatPeriod(period)}
          </text>
        ))}
        <path d={area} fill={theme.palette.primary.main} fillOpacity={0.12} />
        <path d={line} fill="none" stroke={theme.palette.primary.dark} strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" />
        {points.map((point) =>
          dots || point === first || point === last ? (
            <circle key={point.period} cx={x(point.period)} cy={y(point.value)} r={4} fill={theme.palette.background.paper} stroke={theme.palette.primary.dark} strokeWidth={2}>
              <title>{`${periodLabel} ${formatPeriod(point.period)}: ${formatValue(point.value)}`}</title>
            </circle>
          ) : null,
        )}
      </Box>
      <Box sx={HIDDEN}>
        <table>
          <caption>{summary}</caption>
          <thead>
            <tr>
              <th scope="col">{periodLabel}</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {points.map((point) => (
              <tr key={point.period}>
                <td>{formatPeriod(point.period)}</td>
                <td>{formatValue(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
    </Box>
  );
}
