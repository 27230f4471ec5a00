/**
 * The app's icon set (Lucide-style strokes, decorative: aria-hidden; frame in icon-svg.tsx). The icons defined here are
 * the ones the first load of the public pages draws (logo, language picker, form kit); the others are in
 * icons-more.tsx, imported from there (not re-exported here: what the entry imports statically, even through a
 * re-export, is bundled into the entry chunk), so that they go with the chunks that draw them.
 */
import { Svg, type IconProps } from './icon-svg';

export const ChevronDownIcon = (p: IconProps) => <Svg {...p}><path d="m6 9 6 6 6-6" /></Svg>;
export const CheckIcon = (p: IconProps) => <Svg {...p}><path d="M20 6 9 17l-5-5" /></Svg>;
export const XIcon = (p: IconProps) => <Svg {...p}><path d="M18 6 6 18M6 6l12 12" /></Svg>;
export const GlobeIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="10" />
    <path d="M2 12h20M12 2a15.3 15.3 0 0 1 4 10 15.3 15.3 0 0 1-4 10 15.3 15.3 0 0 1-4-10 15.3 15.3 0 0 1 4-10z" />
  </Svg>
);
export const LockIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="11" width="18" height="11" rx="2" />
    <path d="M7 11V7a5 5 0 0 1 10 0v4" />
  </Svg>
);
