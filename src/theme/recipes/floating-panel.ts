/**
 * The content part of a floating panel (a select's list, a menu, a date picker's calendar): a surface raised above the
 * page, its parts in a column, no outline of its own, gone while closed.
 */
export const floatingPanel = {
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'md',
  boxShadow: 'md',
  outline: 'none',
  display: 'flex',
  flexDirection: 'column',
  _hidden: { display: 'none' },
} as const;
