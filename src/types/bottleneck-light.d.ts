/** `bottleneck/light.js` (what @octokit/plugin-throttling loads) is Bottleneck without Redis: same API. */
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
