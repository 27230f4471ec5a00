import type { ComponentProps } from 'react';
import { table } from 'styled-system/recipes';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(table);

export const Root = withProvider('table', 'root');
export const Caption = withContext('caption', 'caption');
export const Head = withContext('thead', 'head');
export const Body = withContext('tbody', 'body');
export const Row = withContext('tr', 'row');
export const Cell = withContext('td', 'cell');

/** Column header cell; defaults scope="col" for screen readers. */
const HeaderBase = withContext('th', 'header');
export function Header({ scope = 'col', ...props }: ComponentProps<'th'>) {
  return <HeaderBase scope={scope} {...props} />;
}
