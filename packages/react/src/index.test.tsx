import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import pkg from '../package.json';
import { VERSION } from './index.js';

afterEach(cleanup);

describe('@fulcrum/react', () => {
  it('exports a VERSION equal to package.json', () => {
    expect(pkg.name).toBe('@fulcrum/react');
    expect(VERSION).toBe(pkg.version);
  });

  it('renders React into jsdom', () => {
    render(<span data-testid="version">{VERSION}</span>);
    expect(screen.getByTestId('version').textContent).toBe(VERSION);
  });
});
