package dev.docsassistant.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A domain's widget in the tenants file: a bounded public id, one domain's only, never key-shaped; a reload moves it. */
class TenantsWidgetTest {

    @TempDir
    Path dir;

    private Path write(String acmeWidget, String globexWidget) throws Exception {
        return Files.writeString(dir.resolve("tenants.yaml"), """
                organizations:
                  - id: acme
                    apiKeys: [mint_dsc_acme_test]
                    domains:
                      - id: acme
                        docs: classpath:demo-docs
                        widget: %s
                      - id: globex
                        docs: classpath:demo-docs
                        widget: %s
                """.formatted(acmeWidget, globexWidget));
    }

    @Test
    void aWidgetIdNamesItsDomainUntilAReloadMovesIt() throws Exception {
        Path file = write("{id: wid_acme, supportUrl: \"https://help.acme.example/new\"}", "null");
        Tenants tenants = Tenants.load(file.toString(), "", "mint_dsc_");
        assertEquals("acme", tenants.tenantForWidget("wid_acme").domainId());
        assertEquals("https://help.acme.example/new", tenants.tenant("acme").domain().widget().supportUrl());
        assertNull(tenants.tenantForWidget("mint_dsc_acme_test"), "a key is not a widget id");
        assertNull(tenants.tenantForWidget(null));

        write("null", "{id: wid_acme}");
        assertTrue(tenants.reload());
        assertEquals("globex", tenants.tenantForWidget("wid_acme").domainId());
    }

    @Test
    void aBadWidgetIsRefusedWithItsReason() {
        for (String[] bad : new String[][] {
                {"{id: wid_acme}", "{id: wid_acme}", "repeats another's widget id"},
                {"{id: mint_widget}", "null", "widget id must be"},
                {"{id: ab}", "null", "widget id must be"},
                {"{id: \"wid acme\"}", "null", "widget id must be"},
                {"{supportUrl: \"https://help.acme.example\"}", "null", "widget id must be"},
                {"{id: wid_acme, supportUrl: \"javascript:alert(1)\"}", "null", "supportUrl"},
                {"{id: wid_acme, supportUrl: \"https://user:pass@help.acme.example\"}", "null", "supportUrl"}}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> Tenants.load(write(bad[0], bad[1]).toString(), "", "mint_dsc_"), bad[0]);
            assertTrue(refused.getMessage().contains(bad[2]), refused.getMessage());
        }
    }
}
