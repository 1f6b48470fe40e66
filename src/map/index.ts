// @spec SPEC-MAP-001

export { buildMapData, type MapData, type MapNode, type MapEdge, type MapCommit, type MapStaleness, type BuildMapOptions } from './data.js';
export { renderMapHtml, graphLibrary } from './render.js';
