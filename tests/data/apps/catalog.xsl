<?xml version="1.0" encoding="UTF-8"?>
<!-- Groups the catalog by author (Muenchian keys), sorts, sums and
     formats: the stylesheet of the xalan workload. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text"/>
  <xsl:key name="by-author" match="book" use="author"/>
  <xsl:template match="/catalog">
    <xsl:for-each select="book[generate-id() = generate-id(key('by-author', author)[1])]">
      <xsl:sort select="author"/>
      <xsl:variable name="mine" select="key('by-author', author)"/>
      <xsl:value-of select="author"/>
      <xsl:text>: </xsl:text>
      <xsl:value-of select="count($mine)"/>
      <xsl:text> books, </xsl:text>
      <xsl:value-of select="format-number(sum($mine/price), '#,##0.00')"/>
      <xsl:text>, first </xsl:text>
      <xsl:for-each select="$mine">
        <xsl:sort select="@year" data-type="number"/>
        <xsl:if test="position() = 1">
          <xsl:value-of select="concat(title, ' (', @year, ')')"/>
        </xsl:if>
      </xsl:for-each>
      <xsl:text>&#10;</xsl:text>
    </xsl:for-each>
    <xsl:text>titles with 'a': </xsl:text>
    <xsl:value-of select="count(book[contains(translate(title, 'A', 'a'), 'a')])"/>
    <xsl:text>&#10;</xsl:text>
  </xsl:template>
</xsl:stylesheet>
