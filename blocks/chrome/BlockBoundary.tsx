import { Component, type ErrorInfo, type ReactNode } from 'react';
import { boundaryState, type BoundaryState } from '../../engine/browser/widgets/layout';
import { Oops } from './Oops';

type Props = { block: unknown; children: ReactNode };

/**
 * Each block's error boundary (SPEC §4, §8): a block that throws while rendering shows
 * "Oh snap! There was a problem loading this content" in its place and the rest of the page
 * stays. It resets on the next routeChangeStart, and when the next page puts a new block in
 * its place (rules: engine/browser/widgets/layout.ts boundaryState). Each case is sent as an error report.
 */
export class BlockBoundary extends Component<Props, BoundaryState<unknown>> {
  override state: BoundaryState<unknown> = { failed: false, block: this.props.block };

  static getDerivedStateFromError = (): Partial<BoundaryState<unknown>> => ({ failed: true });
  static getDerivedStateFromProps = (props: Props, state: BoundaryState<unknown>) => boundaryState(state, { type: 'props', block: props.block });

  private reset = () => this.setState((s) => (s.failed ? boundaryState(s, { type: 'routeChangeStart' }) : null));

  /** Reported by the inline error reporter (engine/errors/reporterScript.mjs), deduplicated and capped there. */
  override componentDidCatch(error: Error, info: ErrorInfo) {
    if (error && info.componentStack) error.stack = `${error.stack ?? ''}\n${info.componentStack}`.slice(0, 3000);
    window.__reportError?.(error, 'boundary');
  }

  override componentDidMount() {
    window.next.router.events.on('routeChangeStart', this.reset);
  }
  override componentWillUnmount() {
    window.next.router.events.off('routeChangeStart', this.reset);
  }

  override render() {
    return this.state.failed ? <Oops /> : this.props.children;
  }
}
