/**
 * What a docs site serves AI agents, under {@code /sites/{domain}/}: llms.txt and llms-full.txt, each page as
 * Markdown, and an MCP server whose tools search, read and report on the domain's pages ({@link SiteFiles},
 * {@link McpServer}).
 */
package dev.docsassistant.agents;
