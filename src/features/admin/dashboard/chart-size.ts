/** The sign-in chart's plot height in px (sign-in-chart.tsx), which its placeholder (dashboard.tsx) reserves. */
export const CHART_HEIGHT = 200;
