import { css } from 'styled-system/css';

/** Hidden on screen, still read by assistive technology. */
export const visuallyHidden = css({ srOnly: true });
