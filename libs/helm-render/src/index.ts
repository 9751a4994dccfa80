// A Helm chart renderer on logsvc's Go template engine (Helm itself is not packaged for Debian
// or npm): enough of `helm template` for the charts in charts/.
export { renderChart, type ReleaseOptions, type RenderedChart } from './render';
export { helmFunctions } from './functions';
