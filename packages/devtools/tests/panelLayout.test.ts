import { describe, expect, it } from 'vitest';
import { defaultLayout, fittingDocks, placeLayout, reservedSpace, type PanelLayout } from '../src/panelLayout.js';

/** A layout as a person left it: docked on the right, 560 px wide; 320 px high at the bottom. */
const chosen: PanelLayout = {
  dock: 'right',
  bottomHeight: 320,
  rightWidth: 560,
  floating: { x: 40, y: 64, width: 600, height: 400 },
  open: true,
};

describe('where the panel goes in a viewport', () => {
  it('docks on the right only where the page keeps 768 px beside it, and never takes more than leaves it that', () => {
    // 1280 px: 512 px of room on the right, so the 560 px the person chose shrinks to 512.
    const wide = placeLayout(chosen, { width: 1280, height: 800 });
    expect(wide.dock).toBe('right');
    expect(wide.rightWidth).toBe(512);
    expect(reservedSpace(wide)).toEqual({ bottom: 0, right: 512 });
    // 1067 px: 299 px would be left, under the panel's own 300 px minimum: the bottom dock instead.
    const narrow = placeLayout(chosen, { width: 1067, height: 800 });
    expect(narrow.dock).toBe('bottom');
    expect(reservedSpace(narrow)).toEqual({ bottom: 320, right: 0 });
    expect(placeLayout(chosen, { width: 1068, height: 800 }).dock).toBe('right');
  });

  it('floats over the page when neither dock leaves it room (a phone turned sideways)', () => {
    const sideways = placeLayout({ ...chosen, dock: 'bottom' }, { width: 844, height: 390 });
    expect(sideways.dock).toBe('floating');
    expect(reservedSpace(sideways)).toEqual({ bottom: 0, right: 0 });
    expect([...fittingDocks({ width: 844, height: 390 })]).toEqual(['floating']);
  });

  it('keeps the bottom dock low enough to leave the page 320 px', () => {
    expect(placeLayout({ ...chosen, dock: 'bottom', bottomHeight: 700 }, { width: 390, height: 844 }).bottomHeight).toBe(524);
  });

  it("leaves the person's layout as it was, so their dock comes back when the window has room", () => {
    placeLayout(chosen, { width: 1000, height: 800 });
    expect(chosen.dock).toBe('right');
    expect(chosen.rightWidth).toBe(560);
  });

  it('takes the minimum the app asks for', () => {
    expect(placeLayout(chosen, { width: 1280, height: 800 }, { width: 1000, height: 320 }).dock).toBe('bottom');
    expect(placeLayout(chosen, { width: 1280, height: 800 }, { width: 600, height: 320 }).rightWidth).toBe(560);
  });

  it('opens on the right the first time only where that fits', () => {
    expect(defaultLayout({ width: 1280, height: 800 }).dock).toBe('right');
    expect(defaultLayout({ width: 1000, height: 800 }).dock).toBe('bottom');
    expect(defaultLayout({ width: 390, height: 844 }).dock).toBe('bottom');
  });
});
