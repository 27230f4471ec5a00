import type { SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement>;

/** The app's icon frame (Lucide-style strokes, decorative: aria-hidden). 16 px unless the caller sizes it. */
export function Svg({ children, ...props }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}
